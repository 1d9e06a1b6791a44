/// The bottom row: who you are, the thread, the scroll phase, your place, and the last message.
struct StatusBarView {
    var handle: String
    var threadLabel: String
    var phase: String
    var position: (index: Int, count: Int)
    var newCount: Int
    var message: String?
    var isError: Bool

    func draw(into buffer: inout CellBuffer, row: Int, width: Int) {
        let style = isError ? Theme.statusError : Theme.statusBar
        buffer.fill(row: row, from: 0, to: width, style: Theme.statusBar)
        var parts = ["@" + handle, threadLabel, phase, "comment \(position.index)/\(position.count)"]
        if newCount > 0 { parts.append("\(newCount) new") }
        var x = buffer.write(" " + parts.joined(separator: " · "), column: 0, row: row, style: Theme.statusBar)
        if let message {
            x = buffer.write(" · ", column: x, row: row, style: Theme.statusBar)
            buffer.write(message, column: x, row: row, style: style)
        }
    }
}
