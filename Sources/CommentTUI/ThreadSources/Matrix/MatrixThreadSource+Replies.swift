import Foundation
import ThreadModel

/// The comment a reply answers, when it is not loaded: fetched by event id on the work queue.
extension MatrixThreadSource {
    public var postCommentID: String? { locked { timeline.postEventID } }

    public func loadReplyTarget(_ id: String) {
        let eventID = locked { timeline.eventID(forComment: id) } ?? id
        workQueue.async { [weak self] in
            guard let self, !self.stopped else { return }
            let target: ReplyTarget
            do {
                let event = try self.client.event(room: self.roomID, id: eventID)
                let members = self.locked { self.timeline.members }
                let reader = MatrixEventReader(handle: { members.handles[$0] }, name: { members.name(of: $0) })
                if case .comment(let comment, _, _) = reader.read(event) { target = .comment(comment) } else { target = .unavailable }
            } catch let error as MatrixError where error.status == 403 || error.status == 404 {
                target = .unavailable
            } catch {
                // No connection, a server in trouble: asked again later, not given up for the session.
                target = .unreachable
            }
            self.report([.replyTargetLoaded(id: id, target: target)])
        }
    }
}
