import ThreadModel

/// `comment-tui inspect [--format html|json] [--thread FILE] [TEXT]`: shows what the comment
/// markup parser makes of TEXT (or standard input).
enum InspectCommand {
    static let usage = """
    Usage: comment-tui inspect [--format html|json] [--thread FILE] [TEXT]

    Parses TEXT (or standard input) as a comment body and prints the result:
      --format html   minimal HTML (default): em, strong, code, a href, del, br,
                      <span class="spoiler">, <span class="mention" data-user="ID">,
                      <ruby>base<rt>reading</rt></ruby>
      --format json   the attributed runs: [{"text": …, "attributes": {…}}, …]
      --thread FILE   a thread file whose users' @handles count as mentions
    Example: echo '**hi** @ana ||secret||' | comment-tui inspect --thread team.jsonl
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--format", "--thread"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let format = parsed.value("--format") ?? "html"
        guard format == "html" || format == "json" else {
            throw CommandFailure.usage("--format is html or json, not '\(VisibleText.escape(format))'", usage)
        }
        var handles: [String: String] = [:]
        if let path = parsed.value("--thread") {
            let file: ThreadFile
            do {
                file = try ThreadFile.read(path: path)
            } catch let error as SystemError {
                throw CommandFailure("cannot read \(VisibleText.escape(error.description))")
            }
            handles = file.thread.userIDsByLowercasedHandle
        }
        let body: String
        if parsed.positionals.isEmpty {
            guard !context.inputIsTerminal else {
                throw CommandFailure.usage("give TEXT, or pipe the comment body to standard input", usage)
            }
            body = try context.readInput("the text", limit: ThreadFileLimits.lineBytes, limitName: "8 MiB", outcome: "nothing was inspected")
        } else {
            body = parsed.positionals.joined(separator: " ")
        }
        let document = MarkupDocument(parsing: body, handles: { handles[$0.lowercased()] })
        // The text is made visible by the parser; a mention's user id comes from the thread
        // file as it is, and is escaped here in the format's own way.
        let output = format == "html"
            ? VisibleText.escapingInvisibles(in: HTMLRenderer.render(document), as: .html)
            : VisibleText.escapingInvisibles(in: RunsJSON.encode(CommentMarkup.attributedString(for: document)), as: .json) + "\n"
        try context.writeOutput(Array(output.utf8))
        return 0
    }
}
