import Foundation

/// Which rooms' posts (`GET /v1/rooms/{r}/threads`) home asks for, and when: one request at a
/// time, a room at most once per `spacing` (a busy thread would otherwise ask on every answer),
/// at most `mostPerAnswer` rooms from one answer. A room asked for while its request is in
/// flight, or too soon after the last, is asked again once it may be: activity is never dropped.
///
/// Pure: the time is given, never read.
struct PostsAskSchedule {
    /// The fewest seconds between two requests for one room.
    static let spacing: TimeInterval = 5
    /// The most rooms one answer adds (a sync naming hundreds costs at most this many requests).
    static let mostPerAnswer = 20

    /// The rooms to ask for, in order.
    private(set) var queue: [String] = []
    /// The room whose request is in flight.
    private(set) var inFlight: String?
    /// Rooms asked for again while in flight or too soon: queued once `spacing` has passed.
    private(set) var later: Set<String> = []
    /// When each room was last asked for (pruned to those within `spacing`).
    private var askedAt: [String: Date] = [:]
    /// Whether a worker runs (reads `next` until it says nil).
    private(set) var isRunning = false

    /// Rooms an answer wants asked for; true when a worker is to be started.
    mutating func want(_ rooms: [String], now: Date) -> Bool {
        var added = 0
        for room in rooms where !queue.contains(room) && !later.contains(room) {
            if added >= Self.mostPerAnswer { break }
            added += 1
            if inFlight == room || askedAt[room].map({ now.timeIntervalSince($0) < Self.spacing }) == true {
                later.insert(room)
            } else {
                queue.append(room)
            }
        }
        return startsWorker()
    }

    /// The next room to ask for, now in flight; nil: the worker stops (`wakeIn` says when to
    /// start one again, if ever).
    mutating func next(now: Date) -> String? {
        inFlight = nil
        promote(now: now)
        guard !queue.isEmpty else {
            isRunning = false
            return nil
        }
        let room = queue.removeFirst()
        inFlight = room
        askedAt[room] = now
        return room
    }

    /// Seconds until a room waiting in `later` may be asked for; nil: none waits.
    func wakeIn(now: Date) -> TimeInterval? {
        later.map { room in askedAt[room].map { max(0, Self.spacing - now.timeIntervalSince($0)) } ?? 0 }.min()
    }

    /// The wake-up after `wakeIn`: the rooms due are queued; true when a worker is to be started.
    mutating func wake(now: Date) -> Bool {
        promote(now: now)
        return startsWorker()
    }

    private mutating func startsWorker() -> Bool {
        guard !isRunning, !queue.isEmpty else { return false }
        isRunning = true
        return true
    }

    /// Queues the waiting rooms whose spacing has passed, and forgets old request times.
    private mutating func promote(now: Date) {
        askedAt = askedAt.filter { now.timeIntervalSince($0.value) < Self.spacing || $0.key == inFlight }
        let due = later.filter { $0 != inFlight && askedAt[$0] == nil }.sorted()
        later.subtract(due)
        queue += due.filter { !queue.contains($0) }
    }
}
