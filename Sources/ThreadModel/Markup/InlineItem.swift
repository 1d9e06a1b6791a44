/// One piece of parsed inline content, in document order: text, atoms and span boundaries.
///
/// The parser's output before it becomes attributes: keeping opens and closes lets the HTML
/// view nest exactly as CommonMark does (`<em><em>a</em></em>`), which flat attributes cannot.
enum InlineItem: Equatable, Sendable {
    case text(String)
    case code(String)
    case mention(handle: String, userID: String)
    case lineBreak
    /// Raw HTML from the source: shown as text.
    case rawHTML(String)
    case open(InlineSpan)
    case close(InlineSpan)
}

/// A span of inline content that formatting wraps.
enum InlineSpan: Equatable, Sendable {
    case emphasis
    case strong
    case strikethrough
    case spoiler
    case link(destination: String, title: String?)
    /// `{base|reading}`: the items between open and close are the base.
    case ruby(reading: String)
}
