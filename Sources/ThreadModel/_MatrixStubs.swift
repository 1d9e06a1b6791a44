public enum MatrixHTMLReader {
    public static func markdown(fromHTML html: String, handleForUserID: (String) -> String?) -> String { html }
    public static func markdown(fromPlainText text: String, isReply: Bool) -> String { text }
}
public struct MatrixMessageContent {
    public init(markdown: String, handles: (String) -> String?, displayName: (String) -> String?, replyTo: String? = nil) { json = ["msgtype": "m.text", "body": markdown, "m.mentions": [String: Any]()] }
    public var json: [String: Any]
}
