import Foundation
import ThreadModel

/// A thread kept in a JSON Lines file: indexed when opened, followed through inotify while
/// other writers append, and appended to under the file's lock.
///
/// Our own sent comments come back from `takeUpdates()` like anyone's (the file echoes every
/// append); the app skips comments whose id it already has.
public final class ThreadFileSource: ThreadSource {
    /// The thread file.
    public let path: String
    /// The file name.
    public let label: String
    /// The header and users read when opened; comments stay in the file.
    public let thread: CommentThread
    /// The file indexed by line: comments are decoded when shown.
    public let index: ThreadIndex
    /// Where the read marker and draft are kept; nil when no data directory is known.
    public let stateFiles: ThreadStateFiles?

    /// What makes `updatesReady` readable, kept for the source's life so the descriptor stays
    /// valid for a loop that registered it once.
    enum Readiness {
        /// The file's inotify watch.
        case watch(FileWatch)
        /// A pipe woken once, when following could not even start, to report why.
        case wake(WakePipe)
    }
    let readiness: Readiness?
    /// Reads the appends; nil once following stopped (or never started).
    var tail: ThreadFileTail?
    /// A failure to follow not yet reported by `takeUpdates()`.
    var unreportedFailure: String?

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
        // Indexed, not read: a million-comment file opens at once and decodes only what is shown.
        index = try ThreadIndex.open(path: path)
        let head = index.header ?? ThreadHeader(id: "", title: "", author: "", created: Date(timeIntervalSince1970: 0), body: "")
        thread = CommentThread(
            id: head.id, title: head.title, author: head.author, created: head.created, body: head.body, users: index.users)
        stateFiles = ThreadStateFiles(threadPath: path, environment: environment)
        switch watch {
        case nil:
            readiness = nil
        case .success(let watch):
            do {
                tail = try ThreadFileTail(path: path, follower: index.follower)
                readiness = .watch(watch)
            } catch {
                (readiness, unreportedFailure) = Self.wakeToReport(error)
            }
        case .failure(let error):
            (readiness, unreportedFailure) = Self.wakeToReport(error)
        }
    }

    /// A pipe already woken, so the loop's first look reports why following failed.
    private static func wakeToReport(_ error: Error) -> (Readiness?, String) {
        // Without even a pipe (no descriptors left) the failure goes unreported; the thread
        // still shows as opened.
        let pipe = try? WakePipe()
        pipe?.wake()
        return (pipe.map(Readiness.wake), "stopped following: \(error)")
    }

    /// The first problem, when nothing in the file read as part of a thread (no header, user or
    /// comment): the file is likely something else, and the client refuses it.
    public var notAThreadProblem: ThreadFileProblem? {
        guard index.header == nil, index.users.isEmpty, index.commentCount == 0 else { return nil }
        return index.problems.first
    }

    /// The index: every comment in the file when it was opened.
    public var openedComments: CommentStore { index }
    /// False: the index holds every comment in the file.
    public var hasOlderComments: Bool { false }
    /// The lines that did not read while indexing.
    public var openingProblems: [ThreadFileProblem] { index.problems }

    /// Nothing to do: every comment was opened.
    public func loadOlderComments() {}

    /// Appends the comment under the file's lock (fsynced): `.confirmed` once it is on disk.
    public func send(_ comment: Comment) -> SendOutcome {
        do {
            try ThreadFileLimits.checkBody(comment.body)
            try ThreadFileWriter(path: path).append(.comment(comment))
            return .confirmed
        } catch {
            return .failed("\(error)")
        }
    }

    /// The marker saved beside the thread's other state, if one reads.
    public func loadReadMarker() -> ReadMarker? { stateFiles.flatMap(ReadMarker.load) }

    /// Saves the marker; without a state directory there is nowhere to keep it, which is no error.
    public func saveReadMarker(_ marker: ReadMarker) throws {
        guard let stateFiles else { return }
        try marker.save(stateFiles)
    }

    /// Whether the file held a comment with this id when it was opened.
    public func containsComment(id: String) -> Bool { index.containsComment(id: id) }

    /// `<stem>.draft.json` in the state directory; nil without one.
    public var draftFile: DraftFile? { stateFiles.map(DraftFile.init) }
}
