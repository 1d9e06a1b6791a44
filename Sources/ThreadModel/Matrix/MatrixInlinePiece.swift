/// The formatting a piece of converted HTML text carries, as our Markdown can express it.
struct MatrixInlineStyle: Hashable {
    var strong = false
    var emphasis = false
    var strikethrough = false
    var spoiler = false
    var link: String?
    /// The annotation the text is the base of (`<ruby>`), numbered so neighbours stay apart.
    var ruby: MatrixRuby?

    /// What both styles share, for whitespace moved out of a span.
    func intersection(_ other: MatrixInlineStyle?) -> MatrixInlineStyle {
        guard let other else { return MatrixInlineStyle() }
        return MatrixInlineStyle(strong: strong && other.strong, emphasis: emphasis && other.emphasis,
                                 strikethrough: strikethrough && other.strikethrough, spoiler: spoiler && other.spoiler,
                                 link: link == other.link ? link : nil, ruby: ruby == other.ruby ? ruby : nil)
    }
}

/// A ruby reading over the text that carries it; `number` tells two equal neighbours apart.
struct MatrixRuby: Hashable {
    var reading: String
    var number: Int
}

/// One piece of a block's inline content, before it becomes Markdown source.
enum MatrixInlinePiece: Equatable {
    case text(String, MatrixInlineStyle)
    case code(String, MatrixInlineStyle)
    /// `fallback` is shown as text when the mention cannot stand where it is (after a letter).
    case mention(handle: String, userID: String, fallback: String, MatrixInlineStyle)
    case lineBreak(MatrixInlineStyle)

    var style: MatrixInlineStyle {
        switch self {
        case .text(_, let s), .code(_, let s), .mention(_, _, _, let s), .lineBreak(let s): return s
        }
    }
}
