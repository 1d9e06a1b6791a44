import ScrollEngine

/// The screen's layers in z-order, for hit testing and the F2 inspector.
public enum ScreenLayer: String, Hashable, Sendable {
    case header, feed, composer, status
    /// The mention list's own rows (its title and users).
    case picker
}

extension CommentApp {
    /// Who receives a mouse event where: the layers bottom to top, the picker's shape derived
    /// from its scroll model at query time.
    var hitTester: HitTester<ScreenLayer, Int> {
        let r = regions
        var tester = HitTester<ScreenLayer, Int>()
        tester.push(HitLayer(id: .header, shape: HitShape(r.header)))
        tester.push(HitLayer(id: .feed, shape: HitShape(r.feed)))
        tester.push(HitLayer(id: .composer, shape: HitShape(
            CellRect(column: 0, row: r.composerRule, width: size.columns, height: r.composer.maxRow - r.composerRule))))
        tester.push(HitLayer(id: .status, shape: HitShape(CellRect(column: 0, row: r.status, width: size.columns, height: 1))))
        if let picker = mentionPicker, !showsHelp {
            tester.push(HitLayer(id: .picker, shape: { picker.hitShape }, item: { _, row in picker.item(atScreenRow: row) }))
        }
        return tester
    }

    /// The layer a click at a cell reaches, and whether it passes through the picker's
    /// transparent inset on the way.
    public func hitLayer(column: Int, row: Int) -> (layer: ScreenLayer, throughPickerInset: Bool)? {
        guard !isTooSmall, let hit = hitTester.hitTest(column: column, row: row) else { return nil }
        return (hit.layer, passesThroughPicker(hit.layer, column: column, row: row))
    }

    /// Whether a click that `layer` receives crossed the list's frame (its transparent inset) first.
    private func passesThroughPicker(_ layer: ScreenLayer, column: Int, row: Int) -> Bool {
        guard layer != .picker, !showsHelp, let picker = mentionPicker else { return false }
        return picker.frame.contains(column: column, row: row)
    }

    /// The layer under the pointer, in words, for the status bar while F2 is on.
    var pointerDescription: String {
        guard let pointer else { return "F2: point at the screen" }
        guard let hit = hitLayer(column: pointer.column, row: pointer.row) else { return "F2: nothing" }
        let name = hit.layer == .picker ? "mention list" : hit.layer.rawValue
        return "F2: \(name)" + (hit.throughPickerInset ? ", via the list's inset" : "")
    }

    /// The scroll phase of the view under the pointer: the list's over its rows, else the feed's.
    var phaseUnderPointer: ScrollPhase {
        if let picker = mentionPicker, let pointer, picker.hitShape.contains(column: pointer.column, row: pointer.row) {
            return picker.model.phase
        }
        return feedScroll.model.phase
    }

    /// Shades every cell by the layer that receives a click there (F2).
    func drawHitTest(into buffer: inout CellBuffer) {
        let tester = hitTester
        for row in 0..<buffer.rows {
            for column in 0..<buffer.columns {
                guard let hit = tester.hitTest(column: column, row: row) else { continue }
                let through = passesThroughPicker(hit.layer, column: column, row: row)
                let shade = through ? Theme.hitPassThrough : Theme.hitShade(hit.layer)
                buffer.restyle(row: row, from: column, to: column + 1) { $0.background = shade }
            }
        }
    }
}

extension Theme {
    /// The F2 inspector's shade for a layer.
    static func hitShade(_ layer: ScreenLayer) -> TerminalColor {
        switch layer {
        case .header: return .magenta
        case .feed: return .blue
        case .composer: return .green
        case .status: return .gray
        case .picker: return .yellow
        }
    }

    /// The F2 shade of the picker's transparent rows, whose clicks reach the feed.
    static let hitPassThrough = TerminalColor.cyan
}
