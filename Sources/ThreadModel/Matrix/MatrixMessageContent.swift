/// The `content` of an outgoing Matrix `m.room.message`, made from a comment's Markdown.
///
/// `body` is the Markdown as typed; `formatted_body` is added only when a reader of the plain
/// body would see something else than we show (formatting, mentions, escapes, entities).
public struct MatrixMessageContent: Sendable {
    /// The Markdown as typed, for `body`.
    public let body: String
    /// The HTML for `formatted_body`, or nil when the plain body shows the same.
    public let formattedBody: String?
    /// The Matrix ids of the users the text mentions, sorted, each once.
    public let userIDsMentioned: [String]
    /// The event this message replies to.
    public let replyTo: String?

    /// Content for `markdown`; `handles` maps an `@handle` to a Matrix user id and `displayName`
    /// a user id to the name its pill shows.
    public init(markdown: String, handles: (String) -> String?, displayName: (String) -> String?, replyTo: String? = nil) {
        let document = MarkupDocument(parsing: markdown, handles: handles)
        var ids = Set<String>()
        for block in document.blocks {
            for case .mention(_, let userID) in block.items { ids.insert(userID) }
        }
        body = markdown
        userIDsMentioned = ids.sorted()
        self.replyTo = replyTo
        let plain = MatrixHTMLReader.markdown(fromPlainText: markdown, isReply: false)
        let showsTheSame = withoutActuallyEscaping(handles) { handles in
            Self.sameRuns(CommentMarkup.parseRuns(markdown, handles: handles), CommentMarkup.parseRuns(plain, handles: handles))
        }
        formattedBody = showsTheSame ? nil : MatrixHTMLWriter.html(document, displayName: displayName)
    }

    /// The content as a JSON object: `msgtype`, `body`, `m.mentions` (always; `{}` when nobody
    /// is mentioned), `format` and `formatted_body` when formatted, `m.relates_to` for a reply.
    public var json: [String: Any] {
        // Always present: an empty object tells clients the message mentions nobody.
        var mentions: [String: Any] = [:]
        if !userIDsMentioned.isEmpty { mentions["user_ids"] = userIDsMentioned }
        var content: [String: Any] = ["msgtype": "m.text", "body": body, "m.mentions": mentions]
        if let formattedBody {
            content["format"] = "org.matrix.custom.html"
            content["formatted_body"] = formattedBody
        }
        if let replyTo {
            let inReplyTo: [String: Any] = ["event_id": replyTo]
            content["m.relates_to"] = ["m.in_reply_to": inReplyTo] as [String: Any]
        }
        return content
    }

    private static func sameRuns(_ a: MarkupRuns, _ b: MarkupRuns) -> Bool {
        guard a.text == b.text, a.runs.count == b.runs.count else { return false }
        return zip(a.runs, b.runs).allSatisfy { $0.end == $1.end && $0.attributes == $1.attributes }
    }
}
