import Foundation
import ThreadModel

/// `comment-tui inspect [--format html|json] [--thread FILE] [TEXT]`: shows what the comment
/// markup parser makes of TEXT (or standard input).
public enum InspectCommand {
    static let usage = """
        usage: comment-tui inspect [--format html|json] [--thread FILE] [TEXT]

        Parses TEXT (or standard input) as a comment body and prints the result:
          --format html   minimal HTML (default): em, strong, code, a href, del, br,
                          <span class="spoiler">, <span class="mention" data-user="ID">
          --format json   the attributed runs: [{"text": …, "attributes": {…}}, …]
          --thread FILE   a thread file whose users' @handles count as mentions
        """

    /// Runs the verb with the arguments after `inspect`; returns the exit status.
    public static func run(_ arguments: [String], standardInput: () -> String) -> Int32 {
        let result = outcome(arguments, standardInput: standardInput)
        print(result.output, terminator: "")
        if !result.errors.isEmpty { FileHandle.standardError.write(Data(result.errors.utf8)) }
        return result.status
    }

    /// What the verb prints and returns, without printing it (for tests).
    static func outcome(_ arguments: [String], standardInput: () -> String) -> (status: Int32, output: String, errors: String) {
        var format = "html"
        var threadPath: String?
        var words: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            switch argument {
            case "--help", "-h":
                return (0, usage + "\n", "")
            case "--format", "--thread":
                guard i + 1 < arguments.count else { return fail("\(argument) needs a value") }
                if argument == "--format" { format = arguments[i + 1] } else { threadPath = arguments[i + 1] }
                i += 1
            case "--":
                words += arguments[(i + 1)...]
                i = arguments.count
            default:
                if argument.hasPrefix("--") { return fail("unknown option \(argument)") }
                words.append(argument)
            }
            i += 1
        }
        guard format == "html" || format == "json" else { return fail("--format is html or json, not \(format)") }
        var users: [User] = []
        if let path = threadPath {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                return fail("cannot read \(path)")
            }
            users = threadUsers(contents)
        }
        let body = words.isEmpty ? standardInput() : words.joined(separator: " ")
        let ids = Dictionary(users.map { ($0.handle, $0.id) }, uniquingKeysWith: { first, _ in first })
        let document = MarkupDocument(parsing: body, handles: { ids[$0] })
        if format == "html" { return (0, HTMLRenderer.render(document), "") }
        return (0, RunsJSON.encode(CommentMarkup.attributedString(for: document)) + "\n", "")
    }

    private static func fail(_ message: String) -> (status: Int32, output: String, errors: String) {
        (2, "", "comment-tui inspect: \(message)\n\(usage)\n")
    }

    /// The user records of a JSON Lines thread file; other lines are skipped.
    /// Stand-in until the thread file reader is merged.
    private static func threadUsers(_ contents: String) -> [User] {
        contents.split(separator: "\n").compactMap { line in
            guard let data = line.data(using: .utf8),
                  let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                  object["type"] as? String == "user",
                  let id = object["id"] as? String, let handle = object["handle"] as? String else { return nil }
            return User(id: id, handle: handle, name: object["name"] as? String ?? handle)
        }
    }
}
