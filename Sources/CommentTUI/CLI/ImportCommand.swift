import Foundation
import ThreadModel

/// `comment-tui import FILE ROOM`: a thread file's comments posted into a room, once.
enum ImportCommand {
    static let usage = """
    Usage: comment-tui import FILE ROOM [--as @user:server] [--appservice-token TOKEN]

    Posts the comments of a thread file into a room (matrix:…), oldest first, as the logged-in
    account. Each keeps its original author, id and time under org.comment_tui.origin, and
    comment-tui shows them as the comment's author and time; the reactions standing in the
    file follow as m.reaction events. Run again after an interruption, it posts only what the
    room does not have yet. With an application service's token (its registration owning
    @import_.* users), each author posts and reacts as @import_<handle>:server with the
    comment's original time instead.
    Example: comment-tui import release.jsonl 'matrix:#release-archive:example.org'
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--as", "--appservice-token"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let positionals = try parsed.positionals(["FILE", "ROOM"], usage: usage)
        let (path, locator) = (positionals[0], positionals[1])
        guard let room = try RoomOpener.address(locator) else {
            throw CommandFailure.usage("'\(VisibleText.escape(locator))' is not a room (matrix:#alias:server, matrix:!id:server)", usage)
        }
        // An import fills a room's own timeline; into a post it would land beside the post, not in it.
        if room.postRoot != nil {
            throw CommandFailure.usage("'\(VisibleText.escape(locator))' names a post: import posts into a room "
                                       + "(matrix:\(VisibleText.escape(room.identifier))), not into a post", usage)
        }
        let file: ThreadFile
        do {
            file = try ThreadFile.read(path: path)
        } catch let error as SystemError {
            throw CommandFailure("cannot read \(VisibleText.escape(error.description))")
        }
        // An import must be faithful: a file with problems is checked and mended first.
        if let problem = file.problems.first {
            throw CommandFailure("\(VisibleText.escape(path)):\(problem.line): \(VisibleText.escape(problem.message)) (see comment-tui check \(VisibleText.escape(path)))")
        }
        let source = try RoomOpener.open(room, as: parsed.value("--as"), context: context, follows: false)
        let (thread, olderDeleted) = OlderExportDeletions.marked(in: file.thread)
        if olderDeleted > 0 { context.writeError(OlderExportDeletions.note(olderDeleted)) }
        do {
            let outcome = try source.importComments(of: thread, appServiceToken: parsed.value("--appservice-token"))
            try context.print("imported \(CountText.of(outcome.posted, "comment")) into \(VisibleText.escape(room.identifier))"
                + (outcome.alreadyThere > 0 ? " (\(outcome.alreadyThere) \(outcome.alreadyThere == 1 ? "was" : "were") there already)" : "")
                + (outcome.reactions > 0 ? ", and \(CountText.of(outcome.reactions, "reaction"))" : "")
                + (outcome.deleted > 0 ? "; \(CountText.of(outcome.deleted, "deleted comment")) left out" : ""))
        } catch let error as MatrixError {
            throw CommandFailure("\(VisibleText.escape(room.identifier)): \(error.message); run it again to post the rest")
        }
        return 0
    }
}
