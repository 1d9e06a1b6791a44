/// The bottom row: who you are, the thread, the scroll phase, your place, and the last message.
///
/// A row too narrow for all of it gives up the less important parts first, whole (`Reduction`),
/// so a number is never cut: the thread's name is shortened with `…`, then your handle, the
/// phase, the thread's name and who is typing go, then `comment 3/50` becomes `3/50`, the
/// connection is shortened to its state (`offline`, never cut: it is the last thing the bar
/// gives up) and the count of new comments goes (the feed's marker shows it too). The message,
/// the answer to what you just did, is cut (with `…`) only after that.
struct StatusBarView {
    var handle: String
    var threadLabel: String
    var phase: String
    var position: (index: Int, count: Int)
    var newCount: Int
    var message: String?
    var isError: Bool
    /// The connection to a thread on a server (`live`, `offline — retrying in 4 s`).
    var connection: ConnectionState? = nil
    /// Whether older comments exist beyond the count (`comment 3/50+`).
    var countIsOpen = false
    /// Who is typing (`marco is typing…`).
    var typing: String? = nil

    /// The columns the thread's name keeps when shortened (its `…` included).
    static let shortPartWidth = 8

    /// A way to make the row narrower, in the order they are taken.
    enum Reduction: CaseIterable {
        case shortenLabel, dropHandle, dropPhase, dropLabel, dropTyping, shortenPosition, shortenConnection, dropNew
    }

    func draw(into buffer: inout CellBuffer, row: Int, width: Int) {
        buffer.fill(row: row, from: 0, to: width, style: Theme.statusBar)
        // One column of margin on the left.
        let room = width - 1
        let messageWidth = message.map { Self.separator.count + DisplayWidth.width(of: $0) } ?? 0
        var shown = parts
        for reduction in Reduction.allCases where DisplayWidth.width(of: shown.joined) + messageWidth > room {
            shown.apply(reduction, overflow: DisplayWidth.width(of: shown.joined) + messageWidth - room)
        }
        var x = buffer.write(" ", column: 0, row: row, style: Theme.statusBar)
        x = buffer.write(shown.joined, column: x, row: row, style: Theme.statusBar, cuttingAt: width)
        // The message only where at least its first character and `…` fit.
        guard let message, x + Self.separator.count + 2 <= width else { return }
        x = buffer.write(Self.separator, column: x, row: row, style: Theme.statusBar)
        buffer.write(message, column: x, row: row, style: isError ? Theme.statusError : Theme.statusBar, cuttingAt: width)
    }

    private static let separator = " · "

    /// Every part, before any is given up.
    private var parts: Parts {
        Parts(handle: "@" + handle, label: threadLabel, connection: connection?.description, connectionWord: connection?.word, phase: phase,
              position: "\(position.index)/\(position.count)" + (countIsOpen ? "+" : ""),
              new: newCount > 0 ? "\(newCount) new" : nil, typing: typing)
    }

    /// The row's parts left to show, in their order on the row.
    struct Parts {
        var handle: String?
        var label: String?
        var connection: String?
        /// What `connection` shortens to: its state alone.
        var connectionWord: String?
        var phase: String?
        /// `3/50`, after the word `comment` unless that was given up.
        var position: String
        var positionNamed = true
        var new: String?
        var typing: String?

        var joined: String {
            [handle, label, connection, phase, (positionNamed ? "comment " : "") + position, new, typing]
                .compactMap { $0 }.joined(separator: StatusBarView.separator)
        }

        /// Takes one reduction; `overflow` is how many columns too wide the row is.
        mutating func apply(_ reduction: Reduction, overflow: Int) {
            switch reduction {
            case .shortenLabel: label = label.map { Self.shortened($0, overflow: overflow) }
            case .dropHandle: handle = nil
            case .dropPhase: phase = nil
            case .dropLabel: label = nil
            case .dropTyping: typing = nil
            case .shortenPosition: positionNamed = false
            case .shortenConnection: connection = connectionWord
            case .dropNew: new = nil
            }
        }

        /// A part cut by `overflow` columns with `…`, to `shortPartWidth` at the least.
        private static func shortened(_ part: String, overflow: Int) -> String {
            let width = DisplayWidth.width(of: part)
            return TextFit.cut(part, to: max(min(width, StatusBarView.shortPartWidth), width - overflow))
        }
    }
}
