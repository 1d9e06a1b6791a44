import Foundation
import ThreadModel

/// The comment a reply answers, when it is not loaded: fetched by event id on the work queue.
extension MatrixThreadSource {
    public var postCommentID: String? { locked { timeline.postEventID } }

    public func loadReplyTarget(_ id: String) {
        let eventID = locked { () -> String in
            let eventID = timeline.eventID(forComment: id) ?? id
            fetchedReplyTargets[eventID] = id
            return eventID
        }
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

    /// Fetches again the targets a sync's edits or redactions change that are not loaded (a
    /// loaded one changes through `commentEdited`), so their quotes follow.
    func refetchChangedTargets(_ events: [JSONValue]) {
        let changed = locked { () -> [String] in
            events.compactMap { event -> String? in
                let content = event["content"]
                let target = event["type"]?.string == "m.room.redaction"
                    ? content?["redacts"]?.string ?? event["redacts"]?.string
                    : content?["m.relates_to"]?["rel_type"]?.string == "m.replace" ? content?["m.relates_to"]?["event_id"]?.string : nil
                guard let target, !timeline.knows(target) else { return nil }
                return fetchedReplyTargets[target]
            }
        }
        for id in Set(changed) { loadReplyTarget(id) }
    }
}
