import ThreadModel

/// A comment body laid out at a width as plain rows: what the feed shows of its text, without
/// styles. For the benchmark against other Markdown renderers, which print text too.
public enum PlainLayout {
    /// The rows of `body` parsed and laid out at `width` columns; `handles` maps an `@handle`
    /// to a user id, for known users only.
    public static func rows(of body: String, width: Int, handles: (String) -> String?) -> [String] {
        rows(of: CommentMarkup.parseRuns(body, handles: handles), width: width)
    }

    /// The rows of a parsed body laid out at `width` columns (the benchmark times layout alone).
    public static func rows(of runs: MarkupRuns, width: Int) -> [String] {
        TextLayout(runs, width: width).lines.map(\.text)
    }
}
