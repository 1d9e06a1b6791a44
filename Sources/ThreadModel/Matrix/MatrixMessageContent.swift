/// The `content` of an outgoing Matrix `m.room.message`, made from a comment's Markdown.
///
/// `body` is the comment as plain text (`MatrixPlainBody`); `formatted_body` is added only when a
/// reader of the plain body would see something else than we show (formatting, mentions, escapes).
public struct MatrixMessageContent: Sendable {
    /// The plain text for `body`: no Markdown escapes, mentions by display name or Matrix id.
    public let body: String
    /// The HTML for `formatted_body`, or nil when the plain body shows the same.
    public let formattedBody: String?
    /// The Matrix ids of the users the text mentions, sorted, each once.
    public let userIDsMentioned: [String]
    /// The event this message replies to.
    public let replyTo: String?

    /// Content for `markdown`; `handles` maps an `@handle` to a Matrix user id and `displayName`
    /// a user id to the name its pill shows.
    /// - Parameters:
    ///   - replyTo: the event replied to.
    ///   - replyToSender: its sender. A reply mentions them, and not whoever its quote of them
    ///     names (MSC4142): mentions inside block quotes do not count then.
    public init(markdown: String, handles: (String) -> String?, displayName: (String) -> String?, replyTo: String? = nil,
                replyToSender: String? = nil) {
        let document = MarkupDocument(parsing: markdown, handles: handles)
        var ids = Set<String>()
        for block in document.blocks where replyTo == nil || block.block.quoteDepth == 0 {
            for case .mention(_, let userID) in block.items { ids.insert(userID) }
        }
        if replyTo != nil, let replyToSender { ids.insert(replyToSender) }
        body = MatrixPlainBody.text(document, displayName: displayName)
        userIDsMentioned = ids.sorted()
        self.replyTo = replyTo
        let plain = MatrixHTMLReader.markdown(fromPlainText: body, isReply: false)
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
        return a.runs == b.runs
    }
}
