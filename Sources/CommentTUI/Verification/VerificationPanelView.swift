import Foundation

/// Draws the verification panel centred over the screen: a title row naming who is verified,
/// then what the stage asks, and a row of the keys that work now.
///
/// ```
///  Verify Bo (@bo:example.org)
///  Compare these emoji with Bo's screen:
///
///      🐶         🔑        ...          (seven slots, each with its name below)
///      Dog        Key       ...
///
///  or the numbers 1234 · 5678 · 9012
///  y they match · n they differ · Esc cancel
/// ```
/// On a screen too narrow for seven slots in a row they wrap; text wraps at spaces.
struct VerificationPanelView {
    var panel: VerificationPanel

    /// Columns of one emoji slot: the longest name the spec gives ("Headphones") and a gap.
    static let slotWidth = 11
    /// The widest the panel grows: seven slots and a margin.
    static let widest = 7 * slotWidth + 3

    /// One row of the panel's body.
    private enum Row {
        case text(String, CellStyle)
        case slots([VerificationPrompt.Symbol])
    }

    func draw(into buffer: inout CellBuffer) {
        guard buffer.columns >= 4, buffer.rows >= 3 else { return }
        let width = min(buffer.columns, Self.widest)
        let rows = Array(body(width: width - 2).prefix(buffer.rows - 1))
        let height = rows.count + 1 + (rows.contains { if case .slots = $0 { true } else { false } } ? rowsOfSlots(width) : 0)
        let top = max(0, (buffer.rows - height) / 2)
        let left = (buffer.columns - width) / 2
        let end = left + width
        buffer.fill(row: top, from: left, to: end, style: Theme.pickerTitle)
        buffer.write(" Verify " + panel.prompt.subject, column: left, row: top, style: Theme.pickerTitle.adding(.bold), cuttingAt: end)
        var y = top + 1
        for row in rows where y < buffer.rows {
            switch row {
            case .text(let text, let style):
                buffer.fill(row: y, from: left, to: end, style: Theme.pickerRow)
                buffer.write(text, column: left + 1, row: y, style: style, cuttingAt: end - 1)
                y += 1
            case .slots(let symbols):
                y = drawSlots(symbols, into: &buffer, row: y, left: left, end: end)
            }
        }
    }

    /// How many extra rows the slots take beyond the one `Row` standing for them.
    private func rowsOfSlots(_ width: Int) -> Int {
        guard case .compare(let emoji, _) = panel.prompt.stage, !emoji.isEmpty else { return 0 }
        let perRow = max(1, (width - 2) / Self.slotWidth)
        return (emoji.count + perRow - 1) / perRow * 2 - 1
    }

    /// The emoji, each centred over its name, as many to a row as fit.
    private func drawSlots(_ symbols: [VerificationPrompt.Symbol], into buffer: inout CellBuffer, row: Int, left: Int, end: Int) -> Int {
        let perRow = max(1, (end - left - 2) / Self.slotWidth)
        var y = row
        for start in stride(from: 0, to: symbols.count, by: perRow) {
            let line = symbols[start..<min(symbols.count, start + perRow)]
            let used = line.count * Self.slotWidth
            let indent = left + 1 + max(0, (end - left - 2 - used) / 2)
            for offset in 0..<2 where y + offset < buffer.rows {
                buffer.fill(row: y + offset, from: left, to: end, style: Theme.pickerRow)
            }
            for (n, symbol) in line.enumerated() {
                let x = indent + n * Self.slotWidth
                let name = TextFit.cut(symbol.name, to: Self.slotWidth - 1)
                let emojiWidth = DisplayWidth.width(of: symbol.emoji)
                buffer.write(symbol.emoji, column: x + max(0, (Self.slotWidth - 1 - emojiWidth) / 2), row: y,
                             style: Theme.pickerRow, limit: end - 1)
                buffer.write(name, column: x + max(0, (Self.slotWidth - 1 - DisplayWidth.width(of: name)) / 2), row: y + 1,
                             style: Theme.pickerRow.adding(.bold), limit: end - 1)
            }
            y += 2
        }
        return y
    }

    /// The stage's rows, its text wrapped at `width`.
    private func body(width: Int) -> [Row] {
        let prompt = panel.prompt
        let other = prompt.otherSide
        let plain = Theme.pickerRow
        let keys = Theme.pickerRow.adding(.dim)
        func said(_ text: String, _ style: CellStyle = plain) -> [Row] {
            Self.wrap(text, width: width).map { .text($0, style) }
        }
        switch prompt.stage {
        case .asked:
            let what = prompt.isOwnDevice ? "\(other) asks to verify this device" : "\(other) asks to verify you"
            return said(what + ": compare emoji on both screens to know no one is in between.")
                + [.text("", plain)] + said("Enter, y accept · n, Esc decline", keys)
        case .waiting(let what):
            return said("Waiting for \(other) \(what)…") + [.text("", plain)] + said("Esc cancel", keys)
        case .compare(let emoji, let decimals):
            let numbers = decimals.map(String.init).joined(separator: " · ")
            if emoji.isEmpty {
                // The other side offered numbers only (the spec's decimal form).
                return said("Compare these numbers with \(other)'s screen:") + [.text("", plain)]
                    + said(numbers, plain.adding(.bold)) + [.text("", plain)] + said("y they match · n they differ · Esc cancel", keys)
            }
            return said("Compare these emoji with \(other)'s screen:") + [.text("", plain), .slots(emoji), .text("", plain)]
                + said("or the numbers \(numbers)") + [.text("", plain)] + said("y they match · n they differ · Esc cancel", keys)
        case .confirmed:
            return said("You said they match. Waiting for \(other) to say so too…") + [.text("", plain)] + said("Esc cancel", keys)
        case .verified:
            let done = prompt.isOwnDevice ? "✓ \(prompt.subject) is verified: each trusts the other." : "✓ \(prompt.subject) is verified."
            let note = prompt.note.map { said(VisibleText.escape($0)) } ?? []
            return said(done, plain.adding(.bold)) + note + [.text("", plain)] + said("any key closes", keys)
        case .cancelled(let reason):
            return said("✗ Not verified: " + VisibleText.escape(reason), plain.adding(.bold)) + [.text("", plain)] + said("any key closes", keys)
        }
    }

    /// Text broken at spaces into rows of at most `width` columns (a longer word is cut).
    static func wrap(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var rows: [String] = []
        var row = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = row.isEmpty ? String(word) : row + " " + word
            if DisplayWidth.width(of: candidate) <= width || row.isEmpty {
                row = candidate
            } else {
                rows.append(row)
                row = String(word)
            }
        }
        if !row.isEmpty || rows.isEmpty { rows.append(row) }
        return rows
    }
}
