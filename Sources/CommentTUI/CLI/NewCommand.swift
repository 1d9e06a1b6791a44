import ThreadModel

/// `comment-tui new FILE --title TEXT --as HANDLE [--name NAME] [--body TEXT]`: creates a thread file.
enum NewCommand {
    static let usage = """
    Usage: comment-tui new FILE --title TEXT --as HANDLE [--name NAME] [--body TEXT]
           comment-tui new matrix:[#alias:server] --title TEXT [--body TEXT] [--encrypted] [--as @user:server]

    Creates a thread file holding the thread (its title and post) and its author. Never replaces
    an existing file. Given matrix:#alias:server (or matrix: alone) instead of FILE, creates a
    room named TITLE as the logged-in account (--as @user:server picks one), posts the post as
    its first message, pins it, and prints the room id. Given a room you are in
    (matrix:!id:server, or its alias), starts a post there instead (a room you are not in is
    refused, never joined): sends its root (TITLE as the first line, then the body) and
    prints the post's locator, matrix:ROOM/$EVENT, which open, post, render and export take.
      --title TEXT    the thread's title
      --as HANDLE     the author's handle: 1 to 39 of A-Z a-z 0-9 _ . -
      --name NAME     the author's display name (default: the handle)
      --body TEXT     the post itself, Markdown (default: empty)
      --encrypted     a new room is end-to-end encrypted from the start
    Example: comment-tui new team.jsonl --title "Release 2.4" --as tatiana --name "Tatiana B."
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--title", "--as", "--name", "--body"], flags: ["--encrypted"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let path = try parsed.positionals(["FILE"], usage: usage)[0]
        let title = try parsed.required("--title", usage: usage)
        if MatrixRoomAddress.looksLikeRoom(path) {
            if path != "matrix:", let (client, room) = try RoomVerbs.existingRoom(path, as: parsed.value("--as"), context: context) {
                if parsed.flags.contains("--encrypted") {
                    throw CommandFailure.usage("--encrypted makes a new room encrypted; \(VisibleText.escape(path)) exists already", usage)
                }
                try RoomVerbs.startPost(in: room, client: client, title: title, body: parsed.value("--body"), as: parsed.value("--as"),
                                        context: context)
                return 0
            }
            try RoomVerbs.create(path, title: title, body: parsed.value("--body"), encrypted: parsed.flags.contains("--encrypted"),
                                 as: parsed.value("--as"), context: context)
            return 0
        }
        if parsed.flags.contains("--encrypted") {
            throw CommandFailure.usage("--encrypted is for a new Matrix room (matrix:…), not a thread file", usage)
        }
        let handle = try parsed.required("--as", usage: usage)
        guard Handle.isValid(handle) else {
            throw CommandFailure.usage("handle '\(VisibleText.escape(handle))' is not 1 to 39 of A-Z a-z 0-9 _ . -", usage)
        }
        let author = User(id: ThreadFileWriter.newUserID(), handle: handle, name: parsed.value("--name") ?? handle)
        let header = ThreadHeader(id: ThreadFileWriter.newThreadID(), title: title, author: author.id,
                                  created: context.now(), body: parsed.value("--body") ?? "")
        do {
            try ThreadFileWriter(path: path).create([.thread(header), .user(author)])
        } catch let error as SystemError where error.isAlreadyExists {
            throw CommandFailure("\(VisibleText.escape(path)) exists already; new never replaces a file")
        }
        return 0
    }
}
