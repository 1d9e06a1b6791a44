import ThreadModel

/// A comment body laid out at a width as plain rows: what the feed shows of its text, without
/// styles. For the benchmark against other Markdown renderers, which print text too.
public enum PlainLayout {
    /// The rows of `body` parsed and laid out at `width` columns; `handles` maps an `@handle`
    /// to a user id, for known users only.
    public static func rows(of body: String, width: Int, handles: (String) -> String?) -> [String] {
        TextLayout(CommentMarkup.parseRuns(body, handles: handles), width: width).lines.map(\.text)
    }
}
