import ScrollEngine

/// The screen's layers in z-order, for hit testing and the F2 inspector.
public enum ScreenLayer: String, Hashable, Sendable {
    case header, feed, composer, status
    /// The mention list's own rows (its title and users).
    case picker
}

/// F2: who receives a mouse event where — the layers bottom to top, the list's shape derived
/// from its scroll model at query time — named in the status bar and shaded over the screen.
struct HitTestInspector {
    var regions: ScreenRegions
    /// The open mention list, if it is on screen.
    var picker: MentionPicker?

    private var tester: HitTester<ScreenLayer, Int> {
        var tester = HitTester<ScreenLayer, Int>()
        tester.push(HitLayer(id: .header, shape: HitShape(regions.header)))
        tester.push(HitLayer(id: .feed, shape: HitShape(regions.feed)))
        tester.push(HitLayer(id: .composer, shape: HitShape(regions.composerWithRule)))
        tester.push(HitLayer(id: .status, shape: HitShape(regions.statusBar)))
        if let picker {
            tester.push(HitLayer(id: .picker, shape: { picker.hitShape }, item: { _, row in picker.item(atScreenRow: row) }))
        }
        return tester
    }

    /// The layer a click at a cell reaches, and whether it crosses the list's transparent inset first.
    func hitLayer(column: Int, row: Int) -> (layer: ScreenLayer, throughPickerInset: Bool)? {
        guard let hit = tester.hitTest(column: column, row: row) else { return nil }
        return (hit.layer, passesThroughPicker(hit.layer, column: column, row: row))
    }

    private func passesThroughPicker(_ layer: ScreenLayer, column: Int, row: Int) -> Bool {
        guard layer != .picker, let picker else { return false }
        return picker.frame.contains(column: column, row: row)
    }

    /// The layer under the pointer, in words, for the status bar.
    func describe(pointer: (column: Int, row: Int)?) -> String {
        guard let pointer else { return "F2: point at the screen" }
        guard let hit = hitLayer(column: pointer.column, row: pointer.row) else { return "F2: nothing" }
        let name = hit.layer == .picker ? "mention list" : hit.layer.rawValue
        return "F2: \(name)" + (hit.throughPickerInset ? ", via the list's inset" : "")
    }

    /// Shades every cell by the layer that receives a click there.
    func draw(into buffer: inout CellBuffer) {
        let tester = self.tester
        for row in 0..<buffer.rows {
            for column in 0..<buffer.columns {
                guard let hit = tester.hitTest(column: column, row: row) else { continue }
                let shade = passesThroughPicker(hit.layer, column: column, row: row) ? Theme.hitPassThrough : Theme.hitShade(hit.layer)
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
