/// The scroll state of one scrollable region: geometry, phase, motion, anchor and observers.
///
/// A pure state machine: inputs (`handle(_:at:)`, `scrollTo`) and `advance(to:)` carry the time,
/// and the model computes its state at that time. Nothing is read from a clock. Call `advance`
/// before drawing a frame; block until `nextDeadline` when nothing moves.
///
/// Observer callbacks run after the model has finished changing, in the order the changes
/// happened; an observer may call back into the model.
public final class ScrollModel<ID: Hashable> {
    /// Tuning; changes take effect with the next input or motion.
    public var configuration: ScrollConfiguration {
        didSet { debouncer.interval = configuration.scrollEndedDebounce }
    }
    /// The items and their heights, in display order.
    public internal(set) var items: ItemHeights<ID>
    /// The viewport size.
    public internal(set) var containerSize: ScrollSize
    /// Extra scrollable rows above and below the items.
    public internal(set) var contentInsets: ScrollInsets
    /// The content row at the top of the viewport (fractional while moving).
    public internal(set) var contentOffset: Double
    /// What the view is doing.
    public internal(set) var phase: ScrollPhase = .idle
    /// The current velocity, in rows per second (positive towards the end).
    public internal(set) var velocity: Double = 0
    /// The latest instant the model has been told about.
    public internal(set) var now: ScrollInstant

    var motion: ScrollMotion<ID>?
    var gesture: ScrollGesture = .none
    var debouncer: Debouncer
    /// Set when the debounced end fired during a gesture in `.afterDebounce` snapping: snap at idle.
    var snapWhenIdle = false
    var observers = ScrollObservers()

    /// Creates a model with a viewport, items (in display order) and insets, at rest at the top.
    public init(containerRows: Int, columns: Int, items: [(id: ID, height: Int)] = [],
                contentInsets: ScrollInsets = .zero, configuration: ScrollConfiguration = ScrollConfiguration(),
                now: ScrollInstant = .zero) {
        self.configuration = configuration
        self.items = ItemHeights(items)
        self.containerSize = ScrollSize(rows: max(0, containerRows), columns: max(0, columns))
        self.contentInsets = contentInsets
        self.contentOffset = Double(-contentInsets.top)
        self.now = now
        self.debouncer = Debouncer(interval: configuration.scrollEndedDebounce)
    }

    // MARK: Reading

    /// The geometry now.
    public var geometry: ScrollGeometry {
        ScrollGeometry(containerSize: containerSize,
                       contentSize: ScrollSize(rows: items.totalHeight, columns: containerSize.columns),
                       contentOffset: contentOffset, contentInsets: contentInsets)
    }

    /// The legal offsets: from the top inset fully shown to the bottom inset fully shown.
    public var offsetBounds: ClosedRange<Double> {
        let g = geometry
        return g.minOffset...g.maxOffset
    }

    /// Whether the viewport shows the end of the content (new items appended are then followed).
    public var isAtBottom: Bool { geometry.isAtBottom }

    /// Where the view comes to rest if nothing else happens: a motion's end, else the offset.
    public var restingOffset: Double {
        guard let motion else { return contentOffset }
        return motion.position(at: motion.endTime)
    }

    /// Whether the model moves by itself and needs frames (`advance(to:)` at the frame rate).
    var isMoving: Bool { motion != nil }

    /// When the model next needs `advance(to:)`: `now` while moving (draw the next frame as soon
    /// as the frame rate allows), else the next timer (wheel burst end, debounced end), else nil.
    public var nextDeadline: ScrollInstant? {
        if motion != nil { return now }
        var deadline: ScrollInstant?
        if case .wheel(let burst) = gesture { deadline = burst.lastNotch + configuration.wheelQuietPeriod }
        if let d = debouncer.deadline { deadline = min(deadline ?? d, d) }
        return deadline
    }

    /// The item on the viewport's top row and the row inside it; nil without items.
    public var anchor: ScrollAnchor<ID>? {
        let row = Int((contentOffset + 1e-9).rounded(.down))
        guard let index = items.index(containingRow: row) else { return nil }
        return ScrollAnchor(id: items.id(at: index), row: contentOffset - Double(items.offset(ofIndex: index)))
    }

    /// The item drawn on viewport row `row`, or nil in an inset, past the content or outside.
    public func item(atViewportRow row: Int) -> ID? {
        guard row >= 0, row < containerSize.rows else { return nil }
        let contentRow = geometry.drawnOffset + row
        guard contentRow >= 0, contentRow < items.totalHeight,
              let index = items.index(containingRow: contentRow) else { return nil }
        return items.id(at: index)
    }

    // MARK: Observation

    /// Calls `action(old, new)` whenever the value `select` picks from the geometry changes.
    @discardableResult
    public func observeGeometry<Value: Equatable>(_ select: @escaping (ScrollGeometry) -> Value,
                                                  _ action: @escaping (Value, Value) -> Void) -> ScrollObservationToken {
        observers.addGeometry(initial: geometry, select: select, action: action)
    }

    /// Calls `action(old, new, context)` on every phase change.
    @discardableResult
    public func observePhase(_ action: @escaping (ScrollPhase, ScrollPhase, ScrollPhaseContext) -> Void) -> ScrollObservationToken {
        observers.addPhase(action)
    }

    /// Calls `action` when the offset has been quiet for `configuration.scrollEndedDebounce`
    /// (the debounce of the SwiftUI collapsing-header talk). It can fire while a button is held still; see `onIdle`.
    @discardableResult
    public func onScrollEnded(_ action: @escaping (ScrollGeometry) -> Void) -> ScrollObservationToken {
        observers.addEnded(action)
    }

    /// Calls `action` at the exact end of scrolling: every move to `.idle`.
    @discardableResult
    func onIdle(_ action: @escaping (ScrollGeometry) -> Void) -> ScrollObservationToken {
        observers.addPhase { _, new, context in
            if new == .idle { action(context.geometry) }
        }
    }

    /// Calls `action(from, to)` when a snap starts: a move from offset `from` to the snap target `to`.
    @discardableResult
    public func onSnap(_ action: @escaping (_ from: Double, _ to: Double) -> Void) -> ScrollObservationToken {
        observers.addSnap(action)
    }

    /// Stops calling an observer.
    func removeObserver(_ token: ScrollObservationToken) {
        observers.remove(token)
    }

    // MARK: Time

    /// Brings the model to `time`: motions move, timers fire in time order. Earlier times are
    /// ignored (time never runs backwards).
    public func advance(to time: ScrollInstant) {
        perform { advanceState(to: time) }
    }

    enum TimedEvent { case motionEnd, burstEnd, debounce }

    /// Processes every timed event up to `time` at its own instant, then moves to `time`.
    func advanceState(to time: ScrollInstant) {
        let target = max(time, now)
        while let (at, event) = nextEvent(), at <= target {
            now = max(now, at)
            followMotion()
            switch event {
            case .motionEnd: finishMotion()
            case .burstEnd: finishWheelBurst()
            case .debounce: fireDebounce()
            }
            observers.geometryChanged(geometry)
        }
        now = target
        followMotion()
    }

    private func nextEvent() -> (ScrollInstant, TimedEvent)? {
        var next: (ScrollInstant, TimedEvent)?
        func consider(_ at: ScrollInstant, _ event: TimedEvent) {
            if next == nil || at < next!.0 { next = (at, event) }
        }
        if let motion { consider(motion.endTime, .motionEnd) }
        if case .wheel(let burst) = gesture { consider(burst.lastNotch + configuration.wheelQuietPeriod, .burstEnd) }
        // While something moves the offset changes continuously, so the debounce cannot fire.
        if motion == nil, let deadline = debouncer.deadline { consider(deadline, .debounce) }
        return next
    }

    /// Puts the offset and velocity where the motion is at `now`.
    func followMotion() {
        guard let motion else { return }
        moveOffset(to: motion.position(at: now))
        velocity = motion.velocity(at: now)
    }

    private func finishMotion() {
        guard let ended = motion else { return }
        moveOffset(to: ended.position(at: ended.endTime))
        motion = nil
        velocity = 0
        if phase == .decelerating || phase == .animating { setPhase(.idle) }
    }

    private func fireDebounce() {
        guard debouncer.fire(at: now) else { return }
        observers.scrollEnded(geometry)
        let snapping = configuration.snapping
        guard snapping.isEnabled, snapping.mode == .afterDebounce else { return }
        if phase == .idle {
            startAfterDebounceSnap()
        } else if case .wheel = gesture, motion == nil {
            // A wheel has no button to hold: quiet for the debounce, the scroll has ended.
            gesture = .none
            setPhase(.idle)
            startAfterDebounceSnap()
        } else if phase.isUserDriven {
            snapWhenIdle = true  // the button is held still: snapping now would fight the user
        }
    }

    /// Animates to the target nearest the current offset (the SwiftUI collapsing-header talk's snap).
    func startAfterDebounceSnap() {
        let target = snapTarget(forProjected: contentOffset)
        guard abs(target - contentOffset) > 1e-9 else { return }
        let animation = ScrollAnimation(from: contentOffset, to: target, startTime: now,
                                        duration: snapDuration(distance: target - contentOffset), easing: configuration.animationEasing)
        guard animation.endTime > now else { return moveOffset(to: target) }
        motion = .animation(animation, target: .offset(target))
        observers.snapped(from: contentOffset, to: target)
        setPhase(.animating)
    }

    /// How long a snap over `distance` rows takes: a frame a row, at most `snapDuration`, so a
    /// one-row snap shows in the next frame (rows are drawn whole: a short, slow move would show
    /// nothing until its end).
    func snapDuration(distance: Double) -> Double {
        min(configuration.snapDuration, abs(distance) / 60)
    }

    /// The clamped snap target for a scroll projected to rest at `projected`.
    func snapTarget(forProjected projected: Double) -> Double {
        let target = configuration.snapping.target(for: projected) { row in
            guard let index = items.index(containingRow: Int(row.rounded(.down))) else { return nil }
            return (Double(items.offset(ofIndex: index)), Double(items.height(at: index)))
        }
        return clamp(target)
    }

    // MARK: Helpers

    /// Runs a change, then reports geometry changes and delivers queued notifications.
    func perform(_ change: () -> Void) {
        change()
        observers.geometryChanged(geometry)
        guard observers.beginDelivery() else { return }
        while let call = observers.next() { call() }
    }

    func clamp(_ offset: Double) -> Double {
        let bounds = offsetBounds
        return min(max(offset, bounds.lowerBound), bounds.upperBound)
    }

    /// Moves the offset (clamped); a real move restarts the debounced end.
    func moveOffset(to offset: Double) {
        let clamped = clamp(offset)
        guard clamped != contentOffset else { return }
        contentOffset = clamped
        debouncer.noteChange(at: now)
    }

    /// Changes the phase, enforcing the transition table, and queues the notifications.
    func setPhase(_ new: ScrollPhase) {
        let old = phase
        guard new != old else { return }
        precondition(ScrollPhase.isLegalTransition(from: old, to: new), "illegal scroll phase change \(old) → \(new)")
        phase = new
        if new == .idle { velocity = 0 }
        observers.phaseChanged(from: old, to: new, context: ScrollPhaseContext(geometry: geometry, velocity: velocity))
        if new == .idle && snapWhenIdle {
            snapWhenIdle = false
            startAfterDebounceSnap()
        }
    }
}
