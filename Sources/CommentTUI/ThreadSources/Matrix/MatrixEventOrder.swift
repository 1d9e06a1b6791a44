import Foundation

/// Where a room's events stand in its order as this client met them: events met as newer (a
/// sync, a gap filled) count up, events of older pages count down. What a read receipt covers is
/// decided by this order (the receipt names an event), never by comparing clocks.
///
/// Bounded: past `most` events, the first noted are forgotten (a receipt on one is then unknown).
struct MatrixEventOrder {
    static let most = 20_000

    private var positions: [String: Int] = [:]
    private var noted: [String] = []
    private var newest = 0
    private var oldest = 0

    /// An event met as newer than all met before (once: later meetings keep the first place).
    mutating func noteNewer(_ eventID: String) {
        guard positions[eventID] == nil else { return }
        newest += 1
        place(eventID, at: newest)
    }

    /// An event of an older page, older than all met before.
    mutating func noteOlder(_ eventID: String) {
        guard positions[eventID] == nil else { return }
        oldest -= 1
        place(eventID, at: oldest)
    }

    /// Whether a receipt on `receipt` covers `event`: the same event, or one after it. An event
    /// never met (a bundle's, older than all met) is covered by a receipt on one that was met;
    /// a receipt on an event never met covers only that event.
    func covers(receipt: String, event: String) -> Bool {
        if receipt == event { return true }
        guard let at = positions[receipt] else { return false }
        guard let other = positions[event] else { return true }
        return at >= other
    }

    private mutating func place(_ eventID: String, at position: Int) {
        if noted.count >= Self.most {
            let dropped = noted.prefix(Self.most / 4)
            for id in dropped { positions[id] = nil }
            noted.removeFirst(dropped.count)
        }
        positions[eventID] = position
        noted.append(eventID)
    }
}
