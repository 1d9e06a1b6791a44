import Foundation

/// A room, or a post, opened from a permalink to one of its messages (`MatrixRoomAddress.linkedEvent`).
extension MatrixThreadSource: LinkedComment {
    public var linkedCommentID: String? {
        locked { linkedEvent.map { timeline.commentID(forEvent: $0) } }
    }

    public var linkedCommentNote: String? { locked { linkedNote } }
}
