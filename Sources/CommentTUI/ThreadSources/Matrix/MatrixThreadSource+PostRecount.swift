import Foundation
import ThreadModel

/// Posts whose reply count may be off (a reply older than the newest known arrived, a limited
/// sync skipped some): their root is read again (`GET /rooms/{r}/event/{root}` bundles the
/// thread's aggregation), once per marking, a bounded number per batch.
extension MatrixThreadSource {
    /// The most roots read again after one batch.
    static let mostPostsRecounted = 20

    /// Marks the posts replied to in a limited sync's events stale (nil: not limited) and reads
    /// the stale ones again, off the caller's way.
    func recountStalePosts(limitedSync events: [JSONValue]? = nil) {
        let roots = locked { () -> [String] in
            if let events { timeline.threadSummaries.markStale(events.compactMap(MatrixTimelineScope.threadRoot(of:))) }
            return timeline.threadSummaries.takeStale(limit: Self.mostPostsRecounted)
        }
        guard !roots.isEmpty else { return }
        workQueue.async { [weak self] in
            guard let self else { return }
            for root in roots {
                // No connection: the count stays as it was until the post moves again.
                guard !self.stopped, let event = try? self.client.event(room: self.roomID, id: root) else { continue }
                let updates = self.locked { self.timeline.rereadPost(event) }
                if !updates.isEmpty { self.report(updates) }
            }
        }
    }
}
