import ThreadModel

/// A comment's reactions as the row under its text: `👍 3  🎉 1`, the reader's own marked, keys
/// past the row's width counted at its end (`+2`).
///
/// Keys are hostile text: each goes through the width discipline as a body's text does
/// (`DisplayWidth`: controls and invisibles as placeholders, emoji substituted unless the
/// terminal draws them whole), cut to a few columns, and only the first few keys are looked at.
struct ReactionRow: Equatable {
    /// One key and its count.
    struct Piece: Equatable {
        var key: [DisplayCluster]
        var count: String
        var isMine: Bool
        /// Columns the key and its count take.
        var width: Int { key.reduce(0) { $0 + $1.width } + 1 + count.count }
    }

    /// The keys shown, in the order given (most people first).
    private(set) var pieces: [Piece] = []
    /// Keys left out (past `maxKeys` or the width).
    private(set) var more = 0

    /// The most keys a row looks at; the rest are counted.
    static let maxKeys = 24
    /// The most columns a key takes; a longer one is cut with `…`.
    static let keyColumns = 8
    /// Columns between two keys.
    static let spacing = 2

    /// The row for `reactions` in `width` columns; nil when there are none.
    init?(_ reactions: [ReactionCount], width: Int) {
        guard !reactions.isEmpty else { return nil }
        var used = 0
        for (n, reaction) in reactions.enumerated() {
            guard n < Self.maxKeys else { break }
            let piece = Piece(key: Self.key(reaction.key), count: String(reaction.count), isMine: reaction.includesMine)
            // Room is kept for the count of the keys left out (`  +NN`).
            let left = reactions.count - n - 1
            let reserve = left > 0 ? Self.spacing + 1 + String(left).count : 0
            let needed = (pieces.isEmpty ? 0 : Self.spacing) + piece.width
            guard used + needed + reserve <= width else { break }
            pieces.append(piece)
            used += needed
        }
        more = reactions.count - pieces.count
    }

    /// A key made safe and cut to `keyColumns` with `…` (only its first characters looked at,
    /// however long it is).
    static func key(_ key: String) -> [DisplayCluster] {
        var clusters: [DisplayCluster] = []
        for character in key.prefix(keyColumns + 1) { clusters += DisplayWidth.clusters(of: character) }
        var width = clusters.reduce(0) { $0 + $1.width }
        guard width > keyColumns || !key.dropFirst(keyColumns + 1).isEmpty else { return clusters }
        while width > keyColumns - 1, let last = clusters.popLast() { width -= last.width }
        return clusters + [DisplayCluster(text: "…", width: 1)]
    }

    /// The text of the row, as drawn (for tests).
    var text: String {
        var parts = pieces.map { $0.key.map(\.text).joined() + " " + $0.count }
        if more > 0 { parts.append("+\(more)") }
        return parts.joined(separator: String(repeating: " ", count: Self.spacing))
    }
}
