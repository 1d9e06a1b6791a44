import Foundation
import ThreadModel

/// What the client starts on: the thread the command line names, opened before the terminal is
/// taken (so mistakes print plainly), or home; and how home opens the threads it lists.
struct ClientStart {
    /// The thread to show first, and its key; nil starts at home.
    var target: OpenCommand.Target?
    var key: ThreadKey?
    /// The logged-in accounts, each with its one sync (not started yet), by user id.
    var accounts: [String: AccountLink]
    /// What the accounts and home's file rows tell the client.
    var mailbox: ClientMailbox

    /// Opens the named thread, or, with none named, home when there is something to list (an
    /// account logged in), else the demo thread as the first run always did.
    static func resolve(_ request: OpenCommand.Request, context: CommandContext) throws -> ClientStart {
        let mailbox = try ClientMailbox()
        let accounts: [String: AccountLink]
        do {
            accounts = try links(request: request, context: context, mailbox: mailbox)
        } catch let failure as CommandFailure {
            // An accounts file that does not read stops no thread file from opening: home says why.
            guard let file = request.file, try RoomOpener.address(file) == nil else { throw failure }
            mailbox.post(.message(failure.message, isError: true))
            accounts = [:]
        }
        if let file = request.file {
            let target: OpenCommand.Target
            if var room = try RoomOpener.address(file) {
                // Opened to be read, `matrix:ROOM/$EVENT` may name any message, as a permalink
                // does: a post's root opens the post, another message the room at it
                // (`MatrixThreadSource.permalinkResolved`). The verbs take it as a post's.
                room.eventIsPermalink = room.postRoot != nil
                target = try openRoom(room, as: request.handle, request: request, context: context, accounts: accounts,
                                      joinsEncrypted: request.joinsEncrypted)
            } else {
                target = try OpenCommand.resolve(file: file, handle: request.handle, context: context)
            }
            let key = try key(of: target, named: file, context: context)
            if case .file(let path) = key { remember(path, context: context) }
            return ClientStart(target: target, key: key, accounts: accounts, mailbox: mailbox)
        }
        let remembered = (try? RememberedThreads(environment: context.environment)?.paths()) ?? []
        if !accounts.isEmpty || !remembered.isEmpty {
            return ClientStart(target: nil, key: nil, accounts: accounts, mailbox: mailbox)
        }
        let demo = try OpenCommand.resolve(file: nil, handle: request.handle, context: context)
        return ClientStart(target: demo, key: .demo, accounts: accounts, mailbox: mailbox)
    }

    /// A link for each logged-in account (one sync each, home's cached rooms posted at once).
    private static func links(request: OpenCommand.Request, context: CommandContext,
                              mailbox: ClientMailbox) throws -> [String: AccountLink] {
        var links: [String: AccountLink] = [:]
        for account in try accounts(context: context) {
            guard let url = URL(string: account.homeserver) else {
                mailbox.post(.message("the saved homeserver of \(VisibleText.escape(account.userID)) is not a URL; log in again", isError: true))
                continue
            }
            let client = MatrixClient(homeserver: url, accessToken: account.accessToken)
            links[account.userID] = AccountLink(account: account, client: client, environment: context.environment,
                                                usesCache: request.usesCache, mailbox: mailbox)
        }
        return links
    }

    /// Opens a room as `userID` (the only account when nil), following it through that account's sync.
    static func openRoom(_ address: MatrixRoomAddress, as userID: String?, request: OpenCommand.Request, context: CommandContext,
                         accounts: [String: AccountLink], joinsEncrypted: Bool) throws -> OpenCommand.Target {
        if let userID, !userID.hasPrefix("@") {
            throw CommandFailure("in a room, --as takes a Matrix user id (@user:server), not '\(VisibleText.escape(userID))'")
        }
        let account = try RoomOpener.account(userID, context: context)
        let source = try RoomOpener.open(address, as: account.userID, context: context, follows: true, usesCache: request.usesCache,
                                         joinsEncrypted: joinsEncrypted, accountSync: accounts[account.userID]?.sync)
        source.privateReceipts = request.privateReceipts
        return OpenCommand.Target(source: source, me: source.reader, room: source)
    }

    /// The key a thread opened from the command line goes under.
    private static func key(of target: OpenCommand.Target, named locator: String, context: CommandContext) throws -> ThreadKey {
        if let room = target.room {
            if let root = room.postRoot { return .post(account: room.me, roomID: room.roomID, root: root) }
            return .room(account: room.me, roomID: room.roomID)
        }
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
        let accounts = self.accounts
        let opener = try ThreadOpener { key, accepts in
            try Self.open(key, acceptsInvite: accepts, request: request, context: context, accounts: accounts)
        }
        var summaries = [ThreadSummary(key: .demo, name: DemoThread.title)]
        if let key, key != .demo, let target { summaries.append(ThreadSummary(key: key, name: target.thread.title)) }
        // Remembered files are listed by name at once; their rows (a read of each file's index)
        // come from the background.
        let remembered = (try? RememberedThreads(environment: context.environment)?.paths()) ?? []
        for path in remembered where ThreadKey.file(path: path) != key {
            summaries.append(ThreadSummary(key: .file(path: path), name: (path as NSString).lastPathComponent))
        }
        let environment = context.environment
        let mailbox = mailbox
        DispatchQueue.global(qos: .utility).async {
            var rows: [ThreadSummary] = []
            // A start at home (an account logged in) may come before the demo was ever opened:
            // its file is written as opening it would, so its row shows its comments.
            if let demo = DemoThread.filePath(environment: environment) { try? DemoThread.install(at: demo) }
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
        let client = CommentClient(columns: columns, rows: rows, settings: settings, start: target, startKey: key,
                                   summaries: summaries, opener: opener, mailbox: mailbox, accounts: accounts)
        client.postHasQueuedComments = { CommentClient.postOutboxHasComments($0, environment: environment) }
        for link in accounts.values { link.start() }
        return client
    }

    /// Puts a thread file opened on home's list for the next start; a list that cannot be kept
    /// costs nothing but that.
    static func remember(_ path: String, context: CommandContext) {
        // Openings run at once on the opener's queue: one read-and-rewrite of the list at a time.
        rememberLock.withLock { try? RememberedThreads(environment: context.environment)?.add(path) }
    }

    private static let rememberLock = NSLock()

    /// Opens a thread home asked for (on the opener's thread).
    static func open(_ key: ThreadKey, acceptsInvite: Bool, request: OpenCommand.Request, context: CommandContext,
                     accounts: [String: AccountLink]) throws -> OpenCommand.Target {
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
            return try openRoom(address, as: account, request: request, context: context, accounts: accounts,
                                joinsEncrypted: acceptsInvite)
        case .post(let account, let roomID, let root):
            guard var address = MatrixRoomAddress(locator: "matrix:\(roomID)"), MatrixRoomAddress.isEventID(root) else {
                throw CommandFailure("'\(VisibleText.escape(roomID))/\(VisibleText.escape(root))' is not a post")
            }
            address.postRoot = root
            return try openRoom(address, as: account, request: request, context: context, accounts: accounts, joinsEncrypted: false)
        }
    }
}
