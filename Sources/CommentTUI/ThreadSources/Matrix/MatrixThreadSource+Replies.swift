import Foundation
import ThreadModel

/// The comment a reply answers, when it is not loaded: fetched by event id on the work queue.
extension MatrixThreadSource {
    public func loadReplyTarget(_ id: String) {
        let eventID = locked { timeline.eventID(forComment: id) } ?? id
        workQueue.async { [weak self] in
            guard let self, !self.stopped else { return }
            let event = try? self.client.event(room: self.roomID, id: eventID)
            let comment = event.flatMap { event -> Comment? in
                let members = self.locked { self.timeline.members }
                let reader = MatrixEventReader(handle: { members.handles[$0] }, name: { members.name(of: $0) })
                if case .comment(let comment, _, _) = reader.read(event) { return comment }
                return nil
            }
            self.report([.replyTargetLoaded(id: id, comment: comment)])
        }
    }
}
