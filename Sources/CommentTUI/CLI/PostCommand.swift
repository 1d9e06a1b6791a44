import Foundation
import ThreadModel

/// `comment-tui post FILE --as HANDLE [--name NAME] [--body TEXT]`: appends a comment.
enum PostCommand {
    static let usage = """
    Usage: comment-tui post FILE --as HANDLE [--name NAME] [--body TEXT]

    Appends a comment to a thread file and prints its id. Without --body the comment is read
    from standard input (which must not be a terminal). FILE may be a room (matrix:…): the
    comment is sent as the logged-in account (--as @user:server) and its event id printed; in
    a post (matrix:ROOM/$EVENT, or its matrix.to link) it is sent in the post's thread.
      --as HANDLE     who writes; a handle new to the thread needs --name to join it
      --name NAME     display name for a new participant (a user record is appended first)
      --body TEXT     the comment, Markdown; mentions are written @handle (at most 1 MiB)
    Examples:
      comment-tui post team.jsonl --as tatiana --body "Ship it **today**, @marco?"
      git log -1 --format=%B | comment-tui post team.jsonl --as ci-bot --name "CI bot"
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--as", "--name", "--body"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let path = try parsed.positionals(["FILE"], usage: usage)[0]
        if let room = try RoomOpener.address(path) {
            try RoomVerbs.post(room, body: try readBody(parsed, context: context), as: parsed.value("--as"), context: context)
            return 0
        }
        let handle = try parsed.required("--as", usage: usage)
        let body = try readBody(parsed, context: context)
        let shownPath = VisibleText.escape(path)
        var commentID = ""
        do {
            // Not `ThreadSource.send`, which takes a comment alone: whether the handle is new must
            // be decided against the file as it is under the lock, and the user record written in
            // the same locked append as the comment, or two writers could claim one handle.
            // The users are kept between posts in the writer's state directory, so a post reads
            // the lines appended since the last one, not the whole file.
            let state = ThreadStateFiles(threadPath: path, environment: context.environment)
            try ThreadFileWriter(path: path).append(usersKeptIn: state) { users in
                var records: [ThreadRecord] = []
                let author: User
                if let known = users.user(handle: handle) {
                    author = known
                } else if let name = parsed.value("--name") {
                    guard Handle.isValid(handle) else {
                        throw CommandFailure.usage("handle '\(VisibleText.escape(handle))' is not 1 to 39 of A-Z a-z 0-9 _ . -", usage)
                    }
                    author = User(id: ThreadFileWriter.newUserID(), handle: handle, name: name)
                    records.append(.user(author))
                } else {
                    let participants = CommentThread(id: "", title: "", author: "", created: Date(timeIntervalSince1970: 0), body: "", users: users.all)
                    throw CommandFailure(
                        "\(shownPath) has no user '\(VisibleText.escape(handle))'; add --name NAME to join the thread, "
                            + "or post as one of: \(ParticipantList.describe(participants))", status: 1)
                }
                commentID = ThreadFileWriter.newCommentID()
                let created = Date(timeIntervalSince1970: context.now().timeIntervalSince1970.rounded(.down))
                records.append(.comment(Comment(id: commentID, author: author.id, created: created, body: body)))
                return records
            }
        } catch let error as SystemError {
            throw CommandFailure("cannot post to \(VisibleText.escape(error.description))")
        } catch is NoThreadRecord {
            throw CommandFailure("cannot post to \(shownPath): it has no thread record (it is empty, cut short or not a thread file); "
                                 + "nothing was posted")
        }
        try context.print(commentID)
        return 0
    }

    /// Whitespace around a piped body that may come on top of the body's limit.
    private static let trimmedSlack = 64 << 10

    private static func readBody(_ parsed: CommandLineArguments, context: CommandContext) throws -> String {
        let raw: String
        if let body = parsed.value("--body") {
            raw = body
        } else {
            guard !context.inputIsTerminal else {
                throw CommandFailure.usage("no --body, and standard input is a terminal: pass --body TEXT or pipe the comment in", usage)
            }
            // The body's limit plus room for the blank lines around it that are trimmed.
            raw = try context.readInput("the comment", limit: ThreadFileLimits.bodyBytes + Self.trimmedSlack,
                                         limitName: "1 MiB", outcome: "nothing was posted")
        }
        let body = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw CommandFailure("the comment is empty; nothing was posted") }
        do {
            try ThreadFileLimits.checkBody(body)
        } catch {
            throw CommandFailure("\(error); nothing was posted")
        }
        return body
    }
}
