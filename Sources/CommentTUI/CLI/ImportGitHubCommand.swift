import Foundation
import ThreadModel

/// `comment-tui import-github ISSUE.json COMMENTS.json`: GitHub's REST JSON to a thread file on stdout.
enum ImportGitHubCommand {
    static let usage = """
    Usage: comment-tui import-github ISSUE.json COMMENTS.json

    Converts an issue and its comments, as GitHub's REST API returns them, to a thread file on
    standard output. Users come from user.login; a comment is marked edited when its updated_at
    differs from its created_at. COMMENTS.json is one array, or several pages' arrays in a row.
    Example:
      gh api repos/OWNER/REPO/issues/42 > issue.json
      gh api --paginate repos/OWNER/REPO/issues/42/comments > comments.json
      comment-tui import-github issue.json comments.json > issue-42.jsonl
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: [], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let paths = try parsed.positionals(["ISSUE.json", "COMMENTS.json"], usage: usage)
        let issue = try object(try readJSON(paths[0]), paths[0], "the issue")
        let comments = try commentObjects(paths[1])
        var importer = GitHubImporter()
        let records = try importer.records(issue: issue, comments: comments, issuePath: paths[0], commentsPath: paths[1])
        var bytes: [UInt8] = []
        let encoder = ThreadRecordEncoder()
        for record in records { encoder.append(record, to: &bytes) }
        try context.writeOutput(bytes)
        return 0
    }

    private static func readJSON(_ path: String) throws -> Any {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot read \(VisibleText.escape(path)): \((error as NSError).localizedDescription)")
        }
        do {
            return try JSONSerialization.jsonObject(with: data, options: [])
        } catch {
            throw CommandFailure("\(VisibleText.escape(path)) is not valid JSON")
        }
    }

    /// The comments, from one array or from `gh --paginate`'s arrays one after another.
    private static func commentObjects(_ path: String) throws -> [[String: Any]] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot read \(VisibleText.escape(path)): \((error as NSError).localizedDescription)")
        }
        let pages: [Any]
        if let single = try? JSONSerialization.jsonObject(with: data, options: []) as? [Any] {
            pages = [single]
        } else {
            pages = try topLevelValues(Array(data)).map { piece in
                guard let page = try? JSONSerialization.jsonObject(with: Data(piece), options: []) else {
                    throw CommandFailure("\(VisibleText.escape(path)) is not a JSON array of comments")
                }
                return page
            }
        }
        var result: [[String: Any]] = []
        for page in pages {
            guard let items = page as? [Any] else { throw CommandFailure("\(VisibleText.escape(path)) is not a JSON array of comments") }
            for (index, item) in items.enumerated() { result.append(try object(item, path, "comment \(index + 1)")) }
        }
        return result
    }

    /// Splits JSON values written one after another (`[…][…]`), outside of strings.
    private static func topLevelValues(_ bytes: [UInt8]) throws -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var depth = 0, start = 0, inString = false, escaped = false
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == 0 { start = index }
                depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { pieces.append(bytes[start...index]) }
            default: break
            }
        }
        return pieces
    }

    static func object(_ value: Any, _ path: String, _ what: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else {
            throw CommandFailure("\(VisibleText.escape(path)): \(what) is not a JSON object")
        }
        return object
    }
}
