import Foundation
import ThreadModel

/// What the client starts on: the thread the command line names, opened before the terminal is
/// taken (so mistakes print plainly), or home; and how home opens the threads it lists.
struct ClientStart {
    /// The thread to show first, and its key; nil starts at home.
    var target: OpenCommand.Target?
    var key: ThreadKey?

    /// Opens the named thread, or, with none named, home when there is something to list (an
    /// account logged in), else the demo thread as the first run always did.
    static func resolve(_ request: OpenCommand.Request, context: CommandContext) throws -> ClientStart {
        if let file = request.file {
            let target = try OpenCommand.resolve(file: file, handle: request.handle, context: context,
                                                 usesCache: request.usesCache, joinsEncrypted: request.joinsEncrypted)
            target.room?.privateReceipts = request.privateReceipts
            let key = try key(of: target, named: file, context: context)
            if case .file(let path) = key { remember(path, context: context) }
            return ClientStart(target: target, key: key)
        }
        let remembered = (try? RememberedThreads(environment: context.environment)?.paths()) ?? []
        if try !accounts(context: context).isEmpty || !remembered.isEmpty { return ClientStart(target: nil, key: nil) }
        let demo = try OpenCommand.resolve(file: nil, handle: request.handle, context: context)
        return ClientStart(target: demo, key: .demo)
    }

    /// The key a thread opened from the command line goes under.
    private static func key(of target: OpenCommand.Target, named locator: String, context: CommandContext) throws -> ThreadKey {
        if let room = target.room { return .room(account: room.me, roomID: room.roomID) }
        return .file(path: absolute(locator, context: context))
    }

    /// The logged-in accounts (none when no configuration directory is known).
    static func accounts(context: CommandContext) throws -> [MatrixAccounts.Account] {
        guard let path = MatrixAccounts.path(environment: context.environment) else { return [] }
        do {
            return try MatrixAccounts(path: path).accounts
        } catch {
            throw CommandFailure("cannot read the accounts in \(VisibleText.escape(path)): \(VisibleText.escape("\(error)"))")
        }
    }

    /// A path made absolute against the working directory, so one file is one key.
    static func absolute(_ path: String, context: CommandContext) -> String {
        let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }

    /// The client: this start's thread on screen (or home), home listing every thread there is.
    func makeClient(columns: Int, rows: Int, settings: CommentClient.SessionSettings, request: OpenCommand.Request,
                    context: CommandContext) throws -> CommentClient {
        let opener = try ThreadOpener { key in try Self.open(key, request: request, context: context) }
        let mailbox = try ClientMailbox()
        var summaries = [ThreadSummary(key: .demo, name: DemoThread.title)]
        if let key, key != .demo, let target { summaries.append(ThreadSummary(key: key, name: target.thread.title)) }
        // Remembered files are listed by name at once; their rows (a read of each file's index)
        // come from the background.
        let remembered = (try? RememberedThreads(environment: context.environment)?.paths()) ?? []
        for path in remembered where ThreadKey.file(path: path) != key {
            summaries.append(ThreadSummary(key: .file(path: path), name: (path as NSString).lastPathComponent))
        }
        let environment = context.environment
        DispatchQueue.global(qos: .utility).async {
            var rows: [ThreadSummary] = []
            if let demo = DemoThread.filePath(environment: environment), FileManager.default.fileExists(atPath: demo),
               var row = try? FileThreadSummary.summary(path: demo, environment: environment) {
                row.key = .demo
                rows.append(row)
            }
            for path in remembered {
                if let row = try? FileThreadSummary.summary(path: path, environment: environment) { rows.append(row) }
            }
            mailbox.post(.summaries(account: nil, rows))
        }
        return CommentClient(columns: columns, rows: rows, settings: settings, start: target, startKey: key,
                             summaries: summaries, opener: opener, mailbox: mailbox)
    }

    /// Puts a thread file opened on home's list for the next start; a list that cannot be kept
    /// costs nothing but that.
    static func remember(_ path: String, context: CommandContext) {
        try? RememberedThreads(environment: context.environment)?.add(path)
    }

    /// Opens a thread home asked for (on the opener's thread).
    static func open(_ key: ThreadKey, request: OpenCommand.Request, context: CommandContext) throws -> OpenCommand.Target {
        switch key {
        case .demo:
            return try OpenCommand.resolve(file: nil, handle: nil, context: context)
        case .file(let path):
            let target = try OpenCommand.resolve(file: path, handle: nil, context: context)
            remember(path, context: context)
            return target
        case .room(let account, let roomID):
            guard let address = MatrixRoomAddress(locator: "matrix:\(roomID)") else {
                throw CommandFailure("'\(VisibleText.escape(roomID))' is not a room id")
            }
            let source = try RoomOpener.open(address, as: account, context: context, follows: true, usesCache: request.usesCache)
            source.privateReceipts = request.privateReceipts
            return OpenCommand.Target(source: source, me: source.reader, room: source)
        }
    }
}
