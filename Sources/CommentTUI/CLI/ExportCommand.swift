import Foundation
import ThreadModel

/// `comment-tui export THREAD`: a thread file or room as a thread file on standard output.
enum ExportCommand {
    static let usage = """
    Usage: comment-tui export THREAD [--as @user:server]

    Writes the thread as a JSON Lines thread file on standard output: the header, the users,
    then every comment oldest first, edits applied, authors and times kept. THREAD is a
    thread file or a room (matrix:!id:server, matrix:#alias:server, a matrix.to link), or a
    post in one (matrix:ROOM/$EVENT, a matrix.to link to the event): its root and replies.
    Example: comment-tui export matrix:#release:example.org > release.jsonl
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--as"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let locator = try parsed.positionals(["THREAD"], usage: usage)[0]
        let thread: CommentThread
        if let room = try RoomOpener.address(locator) {
            thread = try RoomVerbs.snapshot(room, as: parsed.value("--as"), context: context).1
        } else {
            do {
                thread = try ThreadFile.read(path: locator).thread
            } catch let error as SystemError {
                throw CommandFailure("cannot read \(VisibleText.escape(error.description))")
            }
        }
        // Printed, often on a terminal: names, titles and bodies must not reorder or hide text
        // there. JSON's escapes lose nothing, so the file reads back the same.
        let encoder = ThreadRecordEncoder(escapesInvisibles: true)
        try context.writeOutput(ThreadRecord.records(of: thread).flatMap(encoder.encode))
        return 0
    }
}
