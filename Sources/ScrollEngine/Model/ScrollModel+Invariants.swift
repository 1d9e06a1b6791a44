extension ScrollModel {
    /// Checks the model's internal consistency (tests call it after every step); traps on failure.
    /// `checkItems` also runs the O(n log n) item-heights check.
    public func _checkInvariants(checkItems: Bool = true) {
        let bounds = offsetBounds
        precondition(contentOffset.isFinite && velocity.isFinite, "non-finite offset or velocity")
        precondition(contentOffset >= bounds.lowerBound - 1e-9 && contentOffset <= bounds.upperBound + 1e-9,
                     "offset \(contentOffset) outside \(bounds)")
        switch phase {
        case .idle:
            precondition(motion == nil && velocity == 0, "idle while moving")
            guard case .none = gesture else { preconditionFailure("idle during a gesture") }
        case .tracking:
            guard case .pointer(let pointer) = gesture, !pointer.moved else { preconditionFailure("tracking without a still press") }
            precondition(motion == nil, "tracking while moving")
        case .interacting:
            switch gesture {
            case .pointer(let pointer): precondition(pointer.moved && motion == nil, "interacting drag not moved or moving")
            case .wheel: precondition(motion == nil || !motion!.isAnimation, "animation during a wheel burst")
            case .none: preconditionFailure("interacting without a gesture")
            }
        case .decelerating:
            precondition(motion != nil, "decelerating without motion")
            guard case .none = gesture else { preconditionFailure("decelerating during a gesture") }
        case .animating:
            precondition(motion?.isAnimation == true, "animating without an animation")
            guard case .none = gesture else { preconditionFailure("animating during a gesture") }
        }
        if let motion {
            precondition(motion.endTime > now, "a finished motion was not removed")
            precondition(abs(clamp(motion.position(at: now)) - contentOffset) < 1e-6, "offset off the motion's path")
        }
        if case .wheel(let burst) = gesture {
            precondition(burst.lastNotch + configuration.wheelQuietPeriod > now, "an ended wheel burst was not finished")
        }
        if motion == nil, let deadline = debouncer.deadline {
            precondition(deadline > now, "a due debounce did not fire")
        }
        if checkItems { items._checkInvariants() }
    }
}
