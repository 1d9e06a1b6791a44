import ThreadModel

/// `comment-tui check FILE`: reports every problem of a thread file with its line number.
enum CheckCommand {
    static let usage = """
    Usage: comment-tui check FILE

    Reads a thread file and prints every problem as FILE:LINE: message, then a summary.
    Exits 0 when the file is clean, 1 when it has problems or cannot be read. FILE may be a
    room (matrix:…): every event that could not be read as a comment is reported.
    Example: comment-tui check team.jsonl
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: [], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let path = try parsed.positionals(["FILE"], usage: usage)[0]
        if let room = try RoomOpener.address(path) { return try RoomVerbs.check(room, as: nil, context: context) }
        let shownPath = VisibleText.escape(path)
        let file: ThreadFile
        do {
            file = try ThreadFile.read(path: path)
        } catch let error as SystemError {
            throw CommandFailure("cannot read \(VisibleText.escape(error.description))")
        }
        var problems = file.problems
        if file.pendingBytes > 0 {
            problems.append(ThreadFileProblem(
                line: file.lineCount + 1,
                message: file.pendingBytes > ThreadFileLimits.lineBytes
                    ? "last line has no newline (\(file.pendingBytes) bytes) and is over the 8 MiB line limit: it will be skipped"
                    : "last line has no newline (\(file.pendingBytes) bytes): not a record until one ends it"))
        }
        for problem in problems {
            try context.print("\(shownPath):\(problem.line): \(VisibleText.escape(problem.message))")
        }
        let thread = file.thread
        let summary = CountText.of(file.recordCount, "record")
            + " (\(CountText.of(thread.users.count, "user")), \(CountText.of(thread.comments.count, "comment")))"
        if problems.isEmpty {
            try context.print("\(shownPath): ok, \(summary)")
            return 0
        }
        try context.print("\(shownPath): \(CountText.of(problems.count, "problem")), \(summary)")
        return 1
    }
}
