/// A handle for removing an observer from a `ScrollModel`.
public struct ScrollObservationToken: Hashable, Sendable {
    let id: Int
}

/// What a phase observer is told besides the old and new phase.
public struct ScrollPhaseContext: Hashable, Sendable {
    /// The geometry at the moment of the change.
    public var geometry: ScrollGeometry
    /// The velocity at the moment of the change, in rows per second.
    public var velocity: Double
}

/// A geometry observer: remembers the last selected value and reports only changes.
private final class GeometryObservation {
    let check: (ScrollGeometry) -> (() -> Void)?

    init<Value: Equatable>(initial: ScrollGeometry, select: @escaping (ScrollGeometry) -> Value,
                           action: @escaping (Value, Value) -> Void) {
        var last = select(initial)
        check = { geometry in
            let new = select(geometry)
            guard new != last else { return nil }
            let old = last
            last = new
            return { action(old, new) }
        }
    }
}

/// The observers of one model and the queue of notifications not yet delivered.
///
/// Notifications are queued while the model changes and delivered once it is consistent again,
/// so an observer may call back into the model (a nested call only queues more).
struct ScrollObservers {
    private var nextID = 0
    private var geometry: [(id: Int, observation: GeometryObservation)] = []
    private var phase: [(id: Int, action: (ScrollPhase, ScrollPhase, ScrollPhaseContext) -> Void)] = []
    private var ended: [(id: Int, action: (ScrollGeometry) -> Void)] = []
    private var snap: [(id: Int, action: (Double, Double) -> Void)] = []
    private var pending: [() -> Void] = []
    private var isDelivering = false

    private mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    mutating func addGeometry<Value: Equatable>(initial: ScrollGeometry, select: @escaping (ScrollGeometry) -> Value,
                                                action: @escaping (Value, Value) -> Void) -> ScrollObservationToken {
        let id = makeID()
        geometry.append((id, GeometryObservation(initial: initial, select: select, action: action)))
        return ScrollObservationToken(id: id)
    }

    mutating func addPhase(_ action: @escaping (ScrollPhase, ScrollPhase, ScrollPhaseContext) -> Void) -> ScrollObservationToken {
        let id = makeID()
        phase.append((id, action))
        return ScrollObservationToken(id: id)
    }

    mutating func addEnded(_ action: @escaping (ScrollGeometry) -> Void) -> ScrollObservationToken {
        let id = makeID()
        ended.append((id, action))
        return ScrollObservationToken(id: id)
    }

    mutating func addSnap(_ action: @escaping (Double, Double) -> Void) -> ScrollObservationToken {
        let id = makeID()
        snap.append((id, action))
        return ScrollObservationToken(id: id)
    }

    mutating func remove(_ token: ScrollObservationToken) {
        snap.removeAll { $0.id == token.id }
        geometry.removeAll { $0.id == token.id }
        phase.removeAll { $0.id == token.id }
        ended.removeAll { $0.id == token.id }
    }

    /// Queues a call to every geometry observer whose selected value changed.
    mutating func geometryChanged(_ value: ScrollGeometry) {
        for entry in geometry {
            if let call = entry.observation.check(value) { pending.append(call) }
        }
    }

    mutating func phaseChanged(from old: ScrollPhase, to new: ScrollPhase, context: ScrollPhaseContext) {
        for entry in phase {
            let action = entry.action
            pending.append { action(old, new, context) }
        }
    }

    mutating func scrollEnded(_ value: ScrollGeometry) {
        for entry in ended {
            let action = entry.action
            pending.append { action(value) }
        }
    }

    mutating func snapped(from: Double, to: Double) {
        for entry in snap {
            let action = entry.action
            pending.append { action(from, to) }
        }
    }

    /// Takes the next queued notification, unless a delivery is already running further up the
    /// stack (that one will drain the queue).
    mutating func beginDelivery() -> Bool {
        guard !isDelivering else { return false }
        isDelivering = true
        return true
    }

    mutating func next() -> (() -> Void)? {
        if pending.isEmpty {
            isDelivering = false
            return nil
        }
        return pending.removeFirst()
    }
}
