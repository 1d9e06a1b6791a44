/// A comment's header — name, handle, relative time, "edited", and a sender's changed identity
/// (loud, right after the name; on a row of its own when stacked) — in the first of three forms
/// in which nothing is cut at the width: compact (one row), standard (two), extended (stacked).
/// A name or handle too wide even for a row of its own is cut, ending in `…`.
///
/// Measured with the widest time text (`RelativeTime.maximumWidth`) so the form, and with it
/// every row below, stays put as times refresh.
struct CommentHeaderLayout: Equatable, Sendable {
    enum Form: Equatable, Sendable { case compact, standard, extended }

    /// A part of a header row; the time is filled in when drawn.
    enum Piece: Equatable, Sendable {
        case name(String)
        case handle(String)
        case time
        case edited
        /// The sender's cryptographic identity changed since it was first seen.
        case identityChanged
        /// The sender is verified (`SenderTrust.verified`): a quiet mark.
        case verified
        /// The sender is not verified: a small mark.
        case unverified
        case separator
    }

    /// What a changed identity's piece says.
    static let identityChangedText = "⚠ identity changed"
    /// What a verified sender's and an unverified sender's pieces say.
    static let verifiedText = "✓"
    static let unverifiedText = "?"

    let form: Form
    let rows: [[Piece]]

    init(name: String, handle: String?, edited: Bool, identityChanged: Bool = false, trust: SenderTrust? = nil, width: Int) {
        let warning: [Piece] = identityChanged || trust == .identityChanged ? [.identityChanged] : []
        // The small marks stay beside the name in every form; only the loud one takes a row.
        let mark: [Piece] = !warning.isEmpty ? [] : trust == .verified ? [.verified] : trust == .unverified ? [.unverified] : []
        let name = Piece.name(name)
        let named = [name] + mark
        let handle = handle.map { Piece.handle("@" + $0) }
        var timeAndEdited: [Piece] = [.time]
        if edited { timeAndEdited += [.separator, .edited] }
        let candidates: [(Form, [[Piece]])] = [
            (.compact, [named + warning + (handle.map { [$0] } ?? []) + [.separator] + timeAndEdited]),
            (.standard, [named + warning + [.separator] + timeAndEdited] + (handle.map { [[$0]] } ?? [])),
            (.extended, [named] + (warning.isEmpty ? [] : [warning]) + (handle.map { [[$0]] } ?? []) + [timeAndEdited]),
        ]
        let fitting = candidates.first { candidate in candidate.1.allSatisfy { Self.width(of: $0) <= width } }
        // Cut, a name keeps room for its mark beside it.
        let markWidth = mark.isEmpty ? 0 : Self.width(of: named) - Self.width(of: [name])
        (form, rows) = fitting ?? (.extended, candidates[2].1.map { row in
            row.map { Self.cut($0, to: row.count > 1 && $0 == name ? max(1, width - markWidth) : width) }
        })
    }

    /// A name or handle cut to `width` columns with `…` at the end; other pieces unchanged.
    private static func cut(_ piece: Piece, to width: Int) -> Piece {
        switch piece {
        case .name(let text): return .name(TextFit.cut(text, to: width))
        case .handle(let text): return .handle(TextFit.cut(text, to: width))
        case .time, .edited, .identityChanged, .verified, .unverified, .separator: return piece
        }
    }

    /// Stands in for any time when measuring.
    private static let widestTime = String(repeating: "0", count: RelativeTime.maximumWidth)

    /// The row's width with the widest time.
    static func width(of row: [Piece]) -> Int {
        row.enumerated().reduce(0) { total, item in
            let gap = item.offset > 0 && item.element != .separator && row[item.offset - 1] != .separator ? 1 : 0
            return total + gap + text(of: item.element, time: widestTime).width
        }
    }

    static func text(of piece: Piece, time: String) -> (text: String, width: Int) {
        let text: String
        switch piece {
        case .name(let name): text = name
        case .handle(let handle): text = handle
        case .time: text = time
        case .edited: text = "edited"
        case .identityChanged: text = identityChangedText
        case .verified: text = verifiedText
        case .unverified: text = unverifiedText
        case .separator: text = " · "
        }
        return (text, DisplayWidth.width(of: text))
    }
}
