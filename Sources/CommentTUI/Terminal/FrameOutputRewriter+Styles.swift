/// Attribute changes in fewer bytes.
///
/// For xterm ncurses re-selects the ASCII character set with every attribute change
/// (`ESC ( B`, 3 bytes; tmux's entry shifts in with SI), and sends attributes and colours as
/// separate sequences, often a colour reset just before a full reset. The client never selects
/// another character set (it writes box drawing as UTF-8, never with A_ALTCHARSET), so the
/// re-selections go; SGR sequences that follow one another become one, with what a reset in
/// them undoes left out, and a reset when nothing is set is left out.
extension FrameOutputRewriter {
    /// One frame's output with shorter attribute changes. Every frame starts in normal
    /// attributes: ncurses ends each update in them, and so do the bytes the screen adds.
    static func tidyStyles(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0x1B) || bytes.contains(0x0F) else { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var plain: Bool? = true   // nil: unknown
        var pending: [[Int]]?
        func flush() {
            guard let units = pending else { return }
            pending = nil
            var kept = units[...]
            if let reset = units.lastIndex(of: [0]) { kept = units[reset...] }
            if kept.first == [0], plain == true { kept = kept.dropFirst() }
            if kept.isEmpty {
                if plain != true { out += Array("\u{1B}[m".utf8) }
                plain = true
                return
            }
            let parameters = kept.map { $0.map(String.init).joined(separator: ";") }.joined(separator: ";")
            out += Array("\u{1B}[\(parameters == "0" ? "" : parameters)m".utf8)
            plain = parameters == "0"
        }
        for piece in OutputPiece.split(bytes) {
            switch piece.kind {
            case .designation where bytes[piece.range] == [0x1B, UInt8(ascii: "("), UInt8(ascii: "B")]:
                continue
            case .control(0x0F):
                continue
            case .csi(UInt8(ascii: "m")):
                if let units = Self.styleUnits(piece, bytes: bytes) {
                    pending = (pending ?? []) + units
                    continue
                }
                flush()
                out += bytes[piece.range]
                plain = nil
            default:
                flush()
                out += bytes[piece.range]
                // DECRC brings back attributes saved who knows when; SO selects another set.
                if piece.kind == .escape(UInt8(ascii: "8")) || piece.kind == .control(0x0E) { plain = nil }
            }
        }
        flush()
        return out
    }

    /// An SGR's parameters in units (an extended colour with its arguments is one unit; a
    /// reset is `[0]`); nil for a form this does not take apart.
    static func styleUnits(_ piece: OutputPiece, bytes: [UInt8]) -> [[Int]]? {
        guard let numbers = piece.numbers(in: bytes) else { return nil }
        if numbers.isEmpty { return [[0]] }
        let values = numbers.map { $0 ?? 0 }
        var units: [[Int]] = []
        var i = 0
        while i < values.count {
            var length = 1
            if [38, 48, 58].contains(values[i]) {
                guard i + 1 < values.count else { return nil }
                switch values[i + 1] {
                case 5: length = 3
                case 2: length = 5
                default: return nil
                }
                guard i + length <= values.count else { return nil }
            }
            units.append(Array(values[i..<(i + length)]))
            i += length
        }
        return units
    }
}
