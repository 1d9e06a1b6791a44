import Foundation
import ThreadModel

/// Which links the reader saw whole, when first, and for how long in all.
///
/// Fed the links each frame drew whole, with the frame's time; a link stops counting when a
/// frame no longer shows it whole. `--visibility-log FILE` writes the records at exit.
public struct LinkVisibility {
    /// One link of one comment.
    public struct Record: Equatable, Sendable {
        public var commentID: String
        public var url: String
        public var firstSeen: Date
        /// Seconds it was on screen whole.
        public var visible: TimeInterval
    }

    private var records: [FeedView.VisibleLink: Record] = [:]
    private var order: [FeedView.VisibleLink] = []
    private var visibleSince: [FeedView.VisibleLink: Date] = [:]

    public init() {}

    /// Takes what a frame drawn at `now` showed whole.
    mutating func update(visible: Set<FeedView.VisibleLink>, at now: Date) {
        for (link, since) in visibleSince where !visible.contains(link) {
            records[link]?.visible += max(0, now.timeIntervalSince(since))
            visibleSince[link] = nil
        }
        for link in visible where visibleSince[link] == nil {
            visibleSince[link] = now
            if records[link] == nil {
                records[link] = Record(commentID: link.commentID, url: link.url, firstSeen: now, visible: 0)
                order.append(link)
            }
        }
    }

    /// Every link seen, in the order first seen, counting those still in view up to `now`.
    public func records(at now: Date) -> [Record] {
        order.compactMap { link in
            guard var record = records[link] else { return nil }
            if let since = visibleSince[link] { record.visible += max(0, now.timeIntervalSince(since)) }
            return record
        }
    }

    /// The records as JSON lines: `{"comment":…,"url":…,"first_seen":…,"visible_ms":…}`.
    static func jsonLines(_ records: [Record]) -> [UInt8] {
        var out: [UInt8] = []
        for record in records {
            out += Array(#"{"comment":"#.utf8)
            ThreadRecordEncoder.appendString(record.commentID, to: &out)
            out += Array(#","url":"#.utf8)
            ThreadRecordEncoder.appendString(record.url, to: &out)
            out += Array(#","first_seen":"#.utf8)
            ThreadRecordEncoder.appendString(Timestamp.format(record.firstSeen), to: &out)
            out += Array(",\"visible_ms\":\(Int((record.visible * 1000).rounded()))}\n".utf8)
        }
        return out
    }
}
