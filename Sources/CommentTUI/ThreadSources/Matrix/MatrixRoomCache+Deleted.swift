import Foundation
import ThreadModel

extension MatrixRoomCache {
    /// Whether a comment of a copy written before redacted comments were marked (no
    /// `marks_deleted` on its room record) was a redacted one: those builds kept a redaction
    /// only as the deleted body, never edited. Compatibility alone: a newer copy says `deleted`,
    /// and there a comment whose text merely says "(deleted)" stays ordinary.
    static func isOlderCopysDeleted(_ body: String, edited: Date?) -> Bool {
        body == Comment.deletedBody && edited == nil
    }
}
