import Foundation

/// The runs of a parsed comment as JSON: `[{"text": …, "attributes": {…}}, …]`, one run a line.
///
/// Attribute names: `emphasis`, `strong`, `strikethrough`, `code` (true when set), `link` (URL),
/// `mention` (user id), `spoiler` (number), `ruby` (the reading), `block` (`role`, `index`, `quoteDepth`, `info` for
/// code blocks, `ordered`/`number`/`list` for list items, `level` for headings, and in a quote
/// `continuedQuotes`). Keys come out sorted.
public enum RunsJSON {
    /// The JSON array of `text`'s runs.
    public static func encode(_ text: AttributedString) -> String {
        var lines: [String] = []
        for run in text.runs {
            var attributes: [String: String] = [:]
            if run[CommentAttributes.EmphasisAttribute.self] == true { attributes["emphasis"] = "true" }
            if run[CommentAttributes.StrongAttribute.self] == true { attributes["strong"] = "true" }
            if run[CommentAttributes.StrikethroughAttribute.self] == true { attributes["strikethrough"] = "true" }
            if run[CommentAttributes.CodeAttribute.self] == true { attributes["code"] = "true" }
            if let link = run[CommentAttributes.LinkAttribute.self] { attributes["link"] = quoted(link) }
            if let user = run[CommentAttributes.MentionAttribute.self] { attributes["mention"] = quoted(user) }
            if let spoiler = run[CommentAttributes.SpoilerAttribute.self] { attributes["spoiler"] = String(spoiler) }
            if let ruby = run[CommentAttributes.RubyAttribute.self] { attributes["ruby"] = quoted(ruby.reading) }
            if let block = run[CommentAttributes.BlockAttribute.self] { attributes["block"] = encode(block) }
            let text = quoted(String(text[run.range].characters))
            lines.append("  {\"text\": \(text), \"attributes\": \(object(attributes))}")
        }
        return lines.isEmpty ? "[]" : "[\n" + lines.joined(separator: ",\n") + "\n]"
    }

    private static func encode(_ block: MarkupBlock) -> String {
        var fields = ["index": String(block.index), "quoteDepth": String(block.quoteDepth)]
        switch block.role {
        case .paragraph:
            fields["role"] = quoted("paragraph")
        case .codeBlock(let info):
            fields["role"] = quoted("codeBlock")
            fields["info"] = quoted(info)
        case .listItem(let ordered, let number, let list):
            fields["role"] = quoted("listItem")
            fields["ordered"] = String(ordered)
            fields["number"] = String(number)
            fields["list"] = String(list)
        case .heading(let level):
            fields["role"] = quoted("heading")
            fields["level"] = String(level)
        }
        // Only where it tells something: which quotes go on from the block before.
        if block.quoteDepth > 0 { fields["continuedQuotes"] = String(block.continuedQuotes) }
        return object(fields)
    }

    private static func object(_ fields: [String: String]) -> String {
        "{" + fields.sorted { $0.key < $1.key }.map { "\(quoted($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
    }

    /// A JSON string literal; controls are escaped (the text is already visible-safe).
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 {
                    out += String(format: "\\u%04x", c.value)
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }
}
