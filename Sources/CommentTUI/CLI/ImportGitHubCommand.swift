import Foundation
import ThreadModel

/// `comment-tui import-github ISSUE.json COMMENTS.json`: GitHub's REST JSON to a thread file on stdout.
enum ImportGitHubCommand {
    static let usage = """
    Usage: comment-tui import-github ISSUE.json COMMENTS.json

    Converts an issue and its comments, as GitHub's REST API returns them, to a thread file on
    standard output. Users come from user.login; a comment is marked edited when its updated_at
    differs from its created_at. Markdown that would make a spoiler (||x||) or ruby ({x|y}),
    which GitHub shows as plain text, gets backslashes so that it shows as plain text here too.
    COMMENTS.json is one array, or several pages' arrays in a row.
    JSON that does not parse to its end (a file cut short, junk between pages) is an error that
    names the file and the byte offset, and nothing is written.
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
        // Printed, often on a terminal: names, titles and bodies must not reorder or hide text
        // there. JSON's escapes lose nothing, so the file reads back the same.
        let encoder = ThreadRecordEncoder(escapesInvisibles: true)
        for record in records { encoder.append(record, to: &bytes) }
        try context.writeOutput(bytes)
        return 0
    }

    /// The one JSON value of a file.
    private static func readJSON(_ path: String) throws -> Any {
        let values = try jsonValues(path)
        guard let first = values.first else { throw CommandFailure("\(VisibleText.escape(path)) is empty: no JSON value") }
        guard values.count == 1 else {
            throw CommandFailure("\(VisibleText.escape(path)) is not valid JSON at byte offset \(values[1].offset): a second value after the first")
        }
        return first.value
    }

    /// The comments, from one array or from `gh --paginate`'s arrays one after another.
    private static func commentObjects(_ path: String) throws -> [[String: Any]] {
        let pages = try jsonValues(path)
        guard !pages.isEmpty else { throw CommandFailure("\(VisibleText.escape(path)) is empty: no JSON array of comments") }
        var result: [[String: Any]] = []
        for page in pages {
            guard let items = page.value as? [Any] else {
                throw CommandFailure("\(VisibleText.escape(path)): the value at byte offset \(page.offset) is \(kind(of: page.value)), not an array of comments")
            }
            for item in items { result.append(try object(item, path, "comment \(result.count + 1)")) }
        }
        return result
    }

    /// Every top-level JSON value of a file with its offset; anything that does not parse to
    /// the end (a download cut short, junk between pages) is an error with the byte offset.
    private static func jsonValues(_ path: String) throws -> [(offset: Int, value: Any)] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandFailure("cannot read \(VisibleText.escape(path)): \((error as NSError).localizedDescription)")
        }
        do {
            return try JSONStreamParser.values(in: Array(data))
        } catch let error as JSONSyntaxError {
            throw CommandFailure("\(VisibleText.escape(path)) is not valid JSON at byte offset \(error.offset): \(VisibleText.escape(error.message))")
        }
    }

    private static func kind(of value: Any) -> String {
        switch value {
        case is [String: Any]: "a JSON object"
        case is String: "a string"
        case is NSNull: "null"
        case is Bool: "a boolean"
        default: "a number"
        }
    }

    static func object(_ value: Any, _ path: String, _ what: String) throws -> [String: Any] {
        guard let object = value as? [String: Any] else {
            throw CommandFailure("\(VisibleText.escape(path)): \(what) is not a JSON object")
        }
        return object
    }
}
