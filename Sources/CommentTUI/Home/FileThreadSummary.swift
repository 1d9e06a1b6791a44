import Foundation
import ThreadModel

/// A thread file's home row: its title, its newest comment, and how many comments came after
/// the read marker saved for it. Reads the file's index (one sequential read, no comment
/// decoded but the newest) and the marker; nothing is written.
public enum FileThreadSummary {
    /// How many of the newest comment lines are tried for a preview when the last ones do not decode.
    static let previewAttempts = 8
    /// Bounds on the texts a row takes from the file (as a room's, `MatrixAccountRooms.Limits`).
    static let limits = MatrixAccountRooms.Limits()

    /// The row of the thread file at `path`; throws when the file cannot be read.
    /// - Parameter environment: where the state directory (the read marker) is.
    public static func summary(path: String, environment: [String: String]) throws -> ThreadSummary {
        let absolute = RememberedThreads.absolute(path)
        let index = try ThreadIndex.open(path: absolute)
        let count = index.commentCount
        let marker = ThreadStateFiles(threadPath: absolute, environment: environment).flatMap(ReadMarker.load)
        let title = index.header?.title ?? (absolute as NSString).lastPathComponent
        var summary = ThreadSummary(key: .file(path: absolute), name: limits.cut(title, bytes: limits.nameBytes),
                                    unread: unread(count: count, marker: marker))
        for position in stride(from: count - 1, through: max(0, count - previewAttempts), by: -1) {
            guard case .success(let comment) = index.comment(at: position) else { continue }
            summary.preview = ShownBody(comment.body, limit: limits.previewBytes).text
            let author = index.users.first { $0.id == comment.author }?.name ?? comment.author
            summary.author = limits.cut(author, bytes: limits.nameBytes)
            summary.activity = comment.created
            break
        }
        if summary.activity == nil { summary.activity = index.header?.created }
        return summary
    }

    /// Comments after the marker's position: all of them without a marker (or with one above
    /// every comment). The comment there is not decoded to check its id: a file is only appended
    /// to, and one rewritten since leaves the position as the best guess there is.
    static func unread(count: Int, marker: ReadMarker?) -> Int {
        guard let marker, marker.position >= 0 else { return count }
        return max(0, count - marker.position - 1)
    }
}
