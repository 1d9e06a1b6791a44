import Foundation

/// Appends records to a thread file safely between processes; never rewrites or truncates.
///
/// Each append takes an exclusive `flock`, starts on a new line (ending a torn line left by a
/// writer that died), writes each record with one `write()`, and `fsync`s before returning:
/// a record counts as sent only once it is on disk. An append that fails part-way (a full
/// disk) is cut back off under the lock, so it leaves no partial line; a record whose line would
/// be over `ThreadFileLimits.lineBytes` is refused before anything is written, and so is an
/// append to a file with no thread record (`NoThreadRecord`: cut to empty, or garbage).
public struct ThreadFileWriter: Sendable {
    /// The thread file.
    public let path: String
    private let encoder = ThreadRecordEncoder()
    /// How many 20 ms tries the lock gets before the append fails (a client's edit, which must
    /// not keep the screen waiting); nil waits for as long as another writer holds it.
    public let lockTries: Int?

    public init(path: String, lockTries: Int? = nil) {
        self.path = path
        self.lockTries = lockTries
    }

    /// Appends records, in order, to an existing file.
    public func append(_ records: [ThreadRecord]) throws {
        try append(records, proceedingIf: { true })
    }

    /// Appends records unless `proceed`, asked once the lock is held and before anything is
    /// written, says no (a client withdrew them while it waited); returns whether they were
    /// appended. Once `proceed` said yes, the records are written or the append throws.
    @discardableResult
    public func append(_ records: [ThreadRecord], proceedingIf proceed: () -> Bool) throws -> Bool {
        try append(madeUnderLock: { _ in proceed() ? records : nil })
    }

    /// Appends the records `make` gives once the lock on the file is held (it is told which file
    /// that is), or nothing when it gives nil (a client withdrew them, or the file is not the
    /// one it expected); returns whether it gave records. Made under the lock, they can be what
    /// holds then (a comment's author changed while it waited).
    @discardableResult
    public func append(madeUnderLock make: (FileIdentity) -> [ThreadRecord]?) throws -> Bool {
        var proceeded = false
        try withLockedFile { file in
            guard let records = make(try file.identity()) else { return ([], false) }
            proceeded = true
            let size = try file.size()
            return (records, try size > 0 && file.byte(at: size - 1) != 0x0A)
        }
        return proceeded
    }

    /// Appends the records that `build` makes from the file's users as they are under the lock,
    /// so that decisions such as "this handle is new" hold against concurrent writers; returns
    /// how many bytes of the file were read to know them.
    ///
    /// With `state`, the users are kept there (`ThreadUserIndex`) up to where the file was read,
    /// so the next append reads only the lines added since: a post to a million-comment thread
    /// reads its last few lines, not the file. Without it (or when the kept users do not fit the
    /// file), the whole file is read, users decoded and comments passed over.
    @discardableResult
    public func append(usersKeptIn state: ThreadStateFiles?, after build: (ThreadFileUsers) throws -> [ThreadRecord]) throws -> Int {
        var bytesRead = 0
        // Checked before the users, so a file with none says that, not "no such user".
        try withLockedFile(checksThreadRecordFirst: true) { file in
            let users = try ThreadFileUsers.read(file, keepingIn: state)
            bytesRead = users.bytesRead
            let records = try build(users)
            let size = try file.size()
            return (records, try size > 0 && file.byte(at: size - 1) != 0x0A)
        }
        return bytesRead
    }

    /// Opens and locks the file, asks what to append and whether the file lacks a final
    /// newline, checks that the file has its thread record (before asking, with
    /// `checksThreadRecordFirst`), then writes one record per `write()` and `fsync`s.
    private func withLockedFile(checksThreadRecordFirst: Bool = false, _ decide: (FileDescriptor) throws -> ([ThreadRecord], Bool)) throws {
        let file = try lockedFile()
        defer { file.close() }
        defer { file.unlock() }
        if checksThreadRecordFirst { try requireThreadRecord(file) }
        let (records, endsTorn) = try decide(file)
        guard !records.isEmpty else { return }
        if !checksThreadRecordFirst { try requireThreadRecord(file) }
        var lines: [[UInt8]] = []
        for record in records {
            var line: [UInt8] = []
            encoder.append(record, to: &line)
            // Readers skip longer lines: writing one would post what nobody sees.
            guard line.count - 1 <= ThreadFileLimits.lineBytes else {
                throw OverLimit(what: "a record line", bytes: line.count - 1, limit: ThreadFileLimits.lineBytes)
            }
            lines.append(lines.isEmpty && endsTorn ? [0x0A] + line : line)
        }
        let start = try file.size()
        do {
            for line in lines { try file.writeAll(line) }
            try file.synchronize()
        } catch {
            // Take the append back: a partial line would stay in the file for good, and a whole
            // one not known to be on disk must not count as sent either. Other writers wait on
            // the lock, so nothing of theirs follows it yet.
            try? file.truncate(to: start)
            try? file.synchronize()
            throw error
        }
    }

    /// Throws `NoThreadRecord` unless the locked file holds its thread record.
    private func requireThreadRecord(_ file: FileDescriptor) throws {
        guard try ThreadRecordPresence.check(file) else { throw NoThreadRecord(path: path) }
    }

    /// How many times a file replaced while its lock was awaited is opened again.
    static let reopenLimit = 5

    /// Opens the file and takes its lock. If the name came to mean another file while the lock
    /// was awaited (`mv other.jsonl FILE`), that file is locked instead: an append never lands
    /// in a file that is no longer the thread.
    private func lockedFile() throws -> FileDescriptor {
        for _ in 0..<Self.reopenLimit {
            let file = try FileDescriptor.openExistingForAppend(path)
            do {
                if let lockTries { try file.lockExclusive(tries: lockTries) } else { try file.lockExclusive() }
                if try FileSystem.identity(of: path) == file.identity() { return file }
            } catch {
                file.close()
                throw error
            }
            file.close()
        }
        throw SystemError("lock (the file was replaced \(Self.reopenLimit) times while waiting)", path: path, code: EAGAIN)
    }

    /// Throws what an append would meet before waiting for the lock (no such file, no
    /// permission, not a regular file), so a client can say so at once.
    public func checkAppendable() throws {
        try FileDescriptor.openExistingForAppend(path).close()
    }

    /// Appends one record.
    public func append(_ record: ThreadRecord) throws { try append([record]) }

    /// Creates a new file holding records; fails if the file exists (never replaces one).
    ///
    /// The content is written to a temporary name first and linked into place, so a reader
    /// never sees a half-written new file.
    public func create(_ records: [ThreadRecord]) throws {
        let temporary = "\(path).\(FileSystem.processID).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let file = try FileDescriptor.createNew(temporary)
        defer { FileSystem.unlink(temporary) }
        do {
            var bytes: [UInt8] = []
            for record in records { encoder.append(record, to: &bytes) }
            try file.writeAll(bytes)
            try file.synchronize()
            file.close()
        } catch {
            file.close()
            throw error
        }
        try FileSystem.link(temporary, to: path)
    }

    /// A fresh comment id, unique under concurrent writers: 64 random bits.
    public static func newCommentID() -> String { "c-" + randomHex() }

    /// A fresh user id.
    public static func newUserID() -> String { "u-" + randomHex() }

    /// A fresh thread id.
    public static func newThreadID() -> String { "t-" + randomHex() }

    private static func randomHex() -> String {
        let text = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - text.count) + text
    }
}
