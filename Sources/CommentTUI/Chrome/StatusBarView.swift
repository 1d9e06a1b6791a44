/// The bottom row: who you are, the thread, the scroll phase, your place, and the last message.
struct StatusBarView {
    var handle: String
    var threadLabel: String
    var phase: String
    var position: (index: Int, count: Int)
    var newCount: Int
    var message: String?
    var isError: Bool
    /// The connection to a thread on a server (`live`, `offline — retrying in 4 s`).
    var connection: String? = nil
    /// Whether older comments exist beyond the count (`comment 3/50+`).
    var countIsOpen = false
    /// Who is typing (`marco is typing…`).
    var typing: String? = nil

    func draw(into buffer: inout CellBuffer, row: Int, width: Int) {
        let style = isError ? Theme.statusError : Theme.statusBar
        buffer.fill(row: row, from: 0, to: width, style: Theme.statusBar)
        var parts = ["@" + handle, threadLabel]
        if let connection { parts.append(connection) }
        parts += [phase, "comment \(position.index)/\(position.count)" + (countIsOpen ? "+" : "")]
        if newCount > 0 { parts.append("\(newCount) new") }
        if let typing { parts.append(typing) }
        var x = buffer.write(" " + parts.joined(separator: " · "), column: 0, row: row, style: Theme.statusBar)
        if let message {
            x = buffer.write(" · ", column: x, row: row, style: Theme.statusBar)
            buffer.write(message, column: x, row: row, style: style)
        }
    }
}
