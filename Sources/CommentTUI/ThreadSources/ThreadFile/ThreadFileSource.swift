import Foundation
import ThreadModel

/// A thread kept in a JSON Lines file: indexed when opened, followed through inotify while
/// other writers append, and appended to under the file's lock.
///
/// Followed, it appends on a thread of its own (`send` is `.pending`, then confirmed or failed
/// by `takeUpdates()`), so the UI never waits for the lock. Our own sent comments come back from
/// `takeUpdates()` like anyone's, at their place in the file, before their confirmation. When
/// the path comes to name another file (`mv other.jsonl FILE`) or the file is cut by another
/// program, the source reads the file at the path again from its start and says so (`.reopened`).
public final class ThreadFileSource: ThreadSource {
    /// The thread file.
    public let path: String
    /// The file name.
    public let label: String
    /// The header and users as the file was last (re)opened; comments stay in the file.
    public internal(set) var thread: CommentThread
    /// The file indexed by line as last (re)opened: comments are decoded when shown.
    public internal(set) var index: ThreadIndex
    /// Where the read marker and draft are kept; nil when no data directory is known.
    public let stateFiles: ThreadStateFiles?

    /// What following needs, for the source's life: nil when opened without following.
    let following: Following?
    /// Reads the appends; nil once following stopped (or never started).
    var tail: ThreadFileTail?
    /// The file the index was read from (a tail must follow the same one).
    var followed: FileIdentity?
    /// A failure to follow not yet reported by `takeUpdates()`.
    var unreportedFailure: String?
    /// Why the outbox could not be read or written, until `takeUpdates()` says it.
    var outboxProblem: String?
    /// The path named no file at the last look (said once).
    var saidRemoved = false
    /// Our comments on their way into the file, on disk until they are there (followed only):
    /// a crash or `kill -9` while an append waits for the lock loses nothing.
    let outbox: CommentOutbox?
    /// Comments an earlier run queued that were not in the file: sent again, shown as on their way.
    public private(set) var unsentComments: [Comment] = []
    /// Unfollowed: the reader, whom the file (replaced since opening) does not know; their next
    /// comment goes with their user record. (Followed, the appender keeps it.)
    var introduction: User?
    /// The reactions the file's records leave, and ours on their way (`ThreadFileSource+Reactions`).
    var reactionState = FileReactionState()

    /// Opens the thread file at `path`; with `follows`, watches it for appends.
    ///
    /// Throws `SystemError` when the file cannot be read. A file with no thread in it at all
    /// opens (see `notAThreadProblem`); a watch that cannot start is reported by the first
    /// `takeUpdates()`, as following stopped. `environment` locates the state directory
    /// (`XDG_DATA_HOME`, `HOME`); it is never read from the process here.
    public convenience init(path: String, environment: [String: String], follows: Bool = true) throws {
        let makeWatch: ((String) throws -> FileWatch)? = follows ? { try FileWatch(path: $0) } : nil
        try self.init(path: path, environment: environment, watch: makeWatch)
    }

    /// Opens with `watch` making the file's watch (tests make one that fails); nil follows nothing.
    init(path: String, environment: [String: String], watch makeWatch: ((String) throws -> FileWatch)?) throws {
        self.path = path
        label = (path as NSString).lastPathComponent
        // Watch first, then index: whatever lands after the index's read makes the watch
        // readable, so nothing appended in between is missed.
        let watch = makeWatch.map { make in Result { try make(path) } }
        let before = try? FileSystem.identity(of: path)
        // Indexed, not read: a million-comment file opens at once and decodes only what is shown.
        index = try ThreadIndex.open(path: path)
        thread = Self.thread(of: index)
        stateFiles = ThreadStateFiles(threadPath: path, environment: environment)
        reactionState.count(index)
        guard let watch else {
            following = nil
            outbox = nil
            return
        }
        let following = try Following(path: path, watch: watch)
        self.following = following
        outbox = stateFiles.map { CommentOutbox(files: $0) }
        // Without a watch no replacement is ever read: appends go to whatever the path names.
        if following.startFailure == nil { following.appender.expect(before) }
        resumeUnsent()
        // The opening's reactions come with the first updates.
        if !reactionState.tally.isEmpty { following.wake.wake() }
        unreportedFailure = following.startFailure
        followed = before
        guard unreportedFailure == nil else { return }
        do {
            let tail = try ThreadFileTail(path: path, follower: index.follower)
            // Replaced between the index and the tail: the first look reads the new file.
            if tail.identity == before { self.tail = tail } else { following.wake.wake() }
        } catch {
            unreportedFailure = "stopped following: \(error)"
            following.wake.wake()
        }
    }

    /// What an earlier run queued and never saw land: in the file already (it landed as that run
    /// died) it is marked so, else it is appended again.
    private func resumeUnsent() {
        guard let outbox, let following else { return }
        let waiting: [CommentOutbox.Entry]
        do {
            waiting = try outbox.unsent()
        } catch {
            outboxProblem = "the outbox is not read: \(error)"
            return
        }
        for entry in waiting {
            if index.containsComment(id: entry.txn) {
                try? outbox.markSent(entry.txn, event: Self.appended)
            } else {
                unsentComments.append(entry.comment)
                following.appender.append(entry.comment)
            }
        }
    }

    /// What the outbox says became of a comment: in the file, or back in the draft at quit.
    static let appended = "appended to the file"
    static let keptInDraft = "kept in the draft"

    /// The header and users an index read.
    static func thread(of index: ThreadIndex) -> CommentThread {
        let head = index.header ?? ThreadHeader(id: "", title: "", author: "", created: Date(timeIntervalSince1970: 0), body: "")
        return CommentThread(id: head.id, title: head.title, author: head.author, created: head.created, body: head.body,
                             users: index.users)
    }

    /// The first problem, when nothing in the file read as part of a thread (no header, user or
    /// comment): the file is likely something else, and the client refuses it.
    public var notAThreadProblem: ThreadFileProblem? {
        guard index.header == nil, index.users.isEmpty, index.commentCount == 0 else { return nil }
        return index.problems.first
    }

    /// The index: every comment in the file when it was (re)opened.
    public var openedComments: CommentStore { index }
    /// The lines that did not read while indexing.
    public var openingProblems: [ThreadFileProblem] { index.problems }

    /// Appends the comment under the file's lock (fsynced). Followed, the append waits for the
    /// lock on a thread of its own: `.pending`, then `.sendConfirmed` or `.sendFailed` from
    /// `takeUpdates()`. Unfollowed (no loop to report to), it appends at once: `.confirmed`. A
    /// body over the limit, or a file that cannot be opened for appending, fails at once.
    public func send(_ comment: Comment) -> SendOutcome {
        do {
            try ThreadFileLimits.checkBody(comment.body)
            let writer = ThreadFileWriter(path: path)
            guard let following else {
                let author = introduction.flatMap { $0.id == comment.author ? [ThreadRecord.user($0)] : nil } ?? []
                try writer.append(author + [.comment(comment)])
                if !author.isEmpty { introduction = nil }
                return .confirmed
            }
            try writer.checkAppendable()
            // On disk before the wait for the lock: if the client dies meanwhile, the next
            // start appends it. Best effort: without room for the outbox the append still goes.
            keepInOutbox(CommentOutbox.Entry(txn: comment.id, author: comment.author, created: comment.created,
                                             body: comment.body, replyTo: nil))
            following.appender.append(comment)
            return .pending
        } catch let error as OverLimit {
            return .failed(SendFailure(.tooLarge, "\(error)"))
        } catch {
            return .failed(SendFailure(.notWritable, "\(error)"))
        }
    }

    /// Comments of the reader's waiting to be written go under their new id (kept so in the
    /// outbox too, for a next start); with `introducing`, their user record goes before the next.
    public func readerChanged(from oldID: String, to reader: User, introducing: Bool) {
        introduction = introducing ? reader : nil
        reactionState.reader = reader.id
        guard let following else { return }
        for comment in following.appender.readerChanged(from: oldID, to: reader, introducing: introducing, expecting: followed) {
            keepInOutbox(CommentOutbox.Entry(txn: comment.id, author: comment.author, created: comment.created,
                                             body: comment.body, replyTo: nil))
        }
    }

    /// Queues a comment in the outbox; a failure is said once (the append goes on without it).
    private func keepInOutbox(_ entry: CommentOutbox.Entry) {
        do {
            try outbox?.queue(entry)
        } catch {
            outboxProblem = "not kept in the outbox (it is appended all the same): \(error)"
        }
    }

    /// At quit: the comments whose append waits for the lock or failed; they are never written
    /// after this (an append already writing is let finish, or left in the outbox for the next
    /// start to look for in the file).
    public func withdrawUnsent() -> [Comment] {
        let taken = following?.appender.withdraw() ?? []
        for comment in taken { try? outbox?.markSent(comment.id, event: Self.keptInDraft) }
        return taken
    }

    /// The reader discarded a comment whose append failed, or took it back into the draft.
    public func discardUnsent(id: String) {
        following?.appender.discard(id)
        try? outbox?.discard(id)
    }

    /// Waits until no append is queued or running (tests); false after `timeout` seconds.
    func waitForAppends(timeout: Double) -> Bool { following?.appender.waitUntilIdle(timeout: timeout) ?? true }

    /// The marker saved beside the thread's other state, if one reads.
    public func loadReadMarker() -> ReadMarker? { stateFiles.flatMap(ReadMarker.load) }

    /// Saves the marker; without a state directory there is nowhere to keep it, which is no error.
    public func saveReadMarker(_ marker: ReadMarker) throws {
        guard let stateFiles else { return }
        try marker.save(stateFiles)
    }

    /// Whether the file held a comment with this id when it was (re)opened.
    public func containsComment(id: String) -> Bool { index.containsComment(id: id) }

    /// `<stem>.draft.json` in the state directory; nil without one.
    public var draftFile: DraftFile? { stateFiles.map(DraftFile.init) }
}
