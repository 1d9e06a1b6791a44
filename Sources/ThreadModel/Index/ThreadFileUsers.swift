import Foundation

/// A thread file's users as a writer finds them under the append lock: from the users a previous
/// post kept (`ThreadUserIndex`) and the lines appended since, or from the whole file when
/// nothing fitting was kept. Either way the file's rule (`ThreadUserTable`) decides.
public struct ThreadFileUsers {
    /// The state file's suffix, beside the read marker and draft.
    static let stateSuffix = "users"
    /// Lines read past the kept offset before the kept users are written again with the new
    /// offset: writing each time would cost more than reading a few appended comments.
    static let rewriteAfterBytes = 256 << 10

    /// Bytes of the thread file read to know the users (all of it when nothing fitting was kept).
    public let bytesRead: Int
    private let kept: ThreadUserIndex?
    private let table: ThreadUserTable?

    /// The user who owns a handle (ignoring case), if any.
    public func user(handle: String) -> User? {
        if let table {
            let key = handle.lowercased()
            return table.usersByID.values.first { $0.handle.lowercased() == key }
        }
        return kept?.user(handle: handle)
    }

    /// Every user (decodes them all: for messages, not for each post).
    public var all: [User] { (table ?? kept?.table())?.sortedUsers ?? [] }

    /// Reads the users of `file` (open and locked) up to its last complete line; keeps them in
    /// `state` for the next writer when given.
    static func read(_ file: FileDescriptor, keepingIn state: ThreadStateFiles?) throws -> ThreadFileUsers {
        if let state, let kept = load(state), kept.fits(file) {
            let scan = try scanUsers(file, from: kept.mark.offset)
            if scan.users.isEmpty {
                if scan.bytesRead > rewriteAfterBytes, let mark = ThreadUserIndex.mark(of: file, at: scan.end) {
                    try? state.write(Data(kept.moved(to: mark)), suffix: stateSuffix)
                }
                return ThreadFileUsers(bytesRead: scan.bytesRead, kept: kept, table: nil)
            }
            if var table = kept.table() {
                for user in scan.users { _ = table.add(user) }
                save(table, file: file, end: scan.end, in: state)
                return ThreadFileUsers(bytesRead: scan.bytesRead, kept: nil, table: table)
            }
        }
        let scan = try scanUsers(file, from: 0)
        var table = ThreadUserTable()
        for user in scan.users { _ = table.add(user) }
        if let state { save(table, file: file, end: scan.end, in: state) }
        return ThreadFileUsers(bytesRead: scan.bytesRead, kept: nil, table: table)
    }

    private static func load(_ state: ThreadStateFiles) -> ThreadUserIndex? {
        guard let data = try? state.read(suffix: stateSuffix) else { return nil }
        return ThreadUserIndex(bytes: Array(data))
    }

    /// A kept index that cannot be written is no error: the next post reads more, that is all.
    private static func save(_ table: ThreadUserTable, file: FileDescriptor, end: Int, in state: ThreadStateFiles) {
        guard let mark = ThreadUserIndex.mark(of: file, at: end) else { return }
        try? state.write(Data(ThreadUserIndex.encode(table, mark: mark)), suffix: stateSuffix)
    }

    /// The user records of the complete lines from `start` on, in order; comment lines in the
    /// canonical shape are passed over undecoded.
    private static func scanUsers(_ file: FileDescriptor, from start: Int) throws -> (users: [User], end: Int, bytesRead: Int) {
        let size = try file.size()
        try file.seek(to: start)
        var users: [User] = []
        let decoder = ThreadRecordDecoder()
        let prefix = ThreadIndexScan.commentPrefix
        // A small tail needs a small buffer (the scanner grows it for a longer line).
        let chunk = min(ThreadIndexScan.chunkSize, max(64 << 10, size - start))
        let end = try LineScanner.scan(file, chunkSize: chunk) { line, _ in
            guard case .complete(let bytes) = line, !bytes.isEmpty,
                  !ThreadIndexScan.isCanonicalComment(bytes, prefix: prefix) else { return }
            if case .record(.user(let user)) = decoder.decode(ArraySlice(bytes)) { users.append(user) }
        }
        return (users, start + end.endOfCompleteLines, max(0, size - start))
    }
}
