// User input and programmatic moves.

extension ScrollModel {
    /// Applies one user input at `time` (after advancing to it). Any input interrupts
    /// `animating` and `decelerating`.
    public func handle(_ input: ScrollInput, at time: ScrollInstant) {
        perform {
            advanceState(to: time)
            switch input {
            case .wheel(let notches): wheel(notches: notches)
            case .press(let row): press(row: row)
            case .drag(let row): drag(row: row)
            case .release: release()
            case .key(let key): self.key(key)
            }
        }
    }

    /// Scrolls to `offset` (clamped), animated with easing or at once.
    public func scrollTo(offset: Double, animated: Bool = true, at time: ScrollInstant) {
        perform {
            advanceState(to: time)
            move(to: .offset(offset), duration: animated ? configuration.animationDuration : 0)
        }
    }

    /// Scrolls so that row `row` of item `id` sits at `alignment` in the viewport; returns false
    /// (and does nothing) if there is no such item.
    @discardableResult
    public func scrollTo(id: ID, row: Int = 0, alignment: ScrollAlignment = .top, animated: Bool = true,
                         at time: ScrollInstant) -> Bool {
        guard items.contains(id) else { return false }
        perform {
            advanceState(to: time)
            move(to: .item(id, row: row, alignment: alignment), duration: animated ? configuration.animationDuration : 0)
        }
        return true
    }

    /// Scrolls to the end of the content; an animated move follows items appended meanwhile.
    public func scrollToBottom(animated: Bool = true, at time: ScrollInstant) {
        perform {
            advanceState(to: time)
            move(to: .bottom, duration: animated ? configuration.animationDuration : 0)
        }
    }

    /// The offset a target stands for now (unclamped).
    func resolve(_ target: ScrollTarget<ID>) -> Double {
        switch target {
        case .offset(let offset):
            return offset
        case .top:
            return geometry.minOffset
        case .bottom:
            return geometry.maxOffset
        case .item(let id, let row, let alignment):
            guard let start = items.offset(of: id) else { return contentOffset }
            let rowOffset = Double(start + row)
            switch alignment {
            case .top: return rowOffset
            case .center: return rowOffset - Double((containerSize.rows - 1) / 2)
            case .bottom: return rowOffset - Double(containerSize.rows - 1)
            }
        }
    }

    // MARK: Programmatic and key moves

    /// Moves to a target over `duration` (0: at once), cancelling any gesture or motion.
    func move(to target: ScrollTarget<ID>, duration: Double) {
        let destination = clamp(resolve(target))
        let startVelocity = motion != nil ? velocity : 0
        guard duration > 0 else { return jump(to: destination) }
        gesture = .none
        guard abs(destination - contentOffset) > 1e-9 else {
            motion = nil
            return setPhase(.idle)
        }
        let easing: ScrollEasing
        var length = duration
        if abs(startVelocity) < 1e-6 {
            easing = configuration.animationEasing
        } else {
            // Already moving: continue at the same speed instead of jerking to a fresh start.
            easing = .velocityMatching(initialVelocity: startVelocity)
            length = ScrollAnimation.velocityMatchingDuration(distance: destination - contentOffset,
                                                              initialVelocity: startVelocity, preferred: duration)
        }
        motion = .animation(ScrollAnimation(from: contentOffset, to: destination, startTime: now,
                                            duration: length, easing: easing), target: target)
        velocity = motion!.velocity(at: now)
        setPhase(.animating)
    }

    /// Sets the offset at once. A drag in progress continues from the new offset; a wheel burst
    /// loses its glide; a motion stops.
    func jump(to destination: Double) {
        let delta = clamp(destination) - contentOffset
        motion = nil
        velocity = 0
        moveOffset(to: destination)
        switch gesture {
        case .pointer(var pointer):
            pointer.offsetAtPress += delta
            pointer.tracker.shift(by: delta)
            gesture = .pointer(pointer)
        case .wheel:
            break
        case .none:
            setPhase(.idle)
            // Every way of scrolling ends on a snap target: a jump that rests between two
            // (a far jump, a scrollbar move) goes on to the nearer one.
            if configuration.snapping.isEnabled, configuration.snapping.mode == .projected { startAfterDebounceSnap() }
        }
    }

    /// Stops a glide (`decelerating`: momentum, or its move to a snap target) where it is drawn
    /// now, as a touch stops one on a phone; a programmatic move (keys, `scrollTo`) and a gesture
    /// in progress are left alone. Stopped between snap targets, it snaps.
    public func stopMomentum(at time: ScrollInstant) {
        perform {
            advanceState(to: time)
            guard phase == .decelerating, case .none = gesture else { return }
            jump(to: Double(geometry.drawnOffset))
        }
    }

    func key(_ key: ScrollKey) {
        // Repeated keys during a key animation accumulate from its destination.
        var base = contentOffset
        if phase == .animating, case .animation(let animation, _)? = motion { base = animation.to }
        let page = Double(max(1, containerSize.rows - 1))
        switch key {
        case .rowUp: rowStep(from: base, to: base.rounded(.up) - 1, towardsEnd: false)
        case .rowDown: rowStep(from: base, to: base.rounded(.down) + 1, towardsEnd: true)
        case .pageUp: move(to: .offset(keyTarget(base.rounded() - page, towardsEnd: false)), duration: configuration.pageKeyDuration)
        case .pageDown: move(to: .offset(keyTarget(base.rounded() + page, towardsEnd: true)), duration: configuration.pageKeyDuration)
        case .top: move(to: .top, duration: configuration.jumpKeyDuration)
        case .bottom: move(to: .bottom, duration: configuration.jumpKeyDuration)
        }
    }

    /// A row key. Its step from rest is one drawn row: shorter than a frame can show as motion,
    /// so it is made at once, with no `animating` on screen (the status bar does not change
    /// twice for one row). Into a collapsing header, or on top of a running animation, it animates.
    func rowStep(from base: Double, to plain: Double, towardsEnd: Bool) {
        let target = keyTarget(plain, towardsEnd: towardsEnd)
        let oneRow = motion == nil && base == base.rounded() && target == plain
        move(to: .offset(target), duration: oneRow ? 0 : configuration.rowKeyDuration)
    }

    /// A key's destination with a collapsing header: one that would stop part-way through the
    /// collapse goes on to the end it was heading for. Snapping to the nearer end instead would
    /// trap row keys (one row down from expanded snaps back to expanded).
    func keyTarget(_ offset: Double, towardsEnd: Bool) -> Double {
        guard case .headerCollapse(let header) = configuration.snapping.targets,
              offset > 0, offset < header.distance else { return offset }
        return towardsEnd ? header.distance : 0
    }

    // MARK: Wheel

    /// A notch moves `wheelStep` rows when slow and up to `wheelMaximumAcceleration` times that
    /// when fast, the faster the more of it as glide (velocity added to the motion rather than
    /// rows jumped): a burst glides instead of teleporting, and when the wheel stops the glide
    /// simply carries on. Everything grows continuously with the notch rate.
    func wheel(notches: Int) {
        guard notches != 0 else { return }
        let direction = Double(notches > 0 ? 1 : -1)
        var gap = Double.infinity
        if case .wheel(let previous) = gesture, Double(previous.direction) == direction { gap = now - previous.lastNotch }
        // A notch while a glide runs the same way (the burst's own, a fling) adds all its rows
        // to the glide; a notch against it stops it.
        let carried = motion?.isAnimation == false && velocity * direction > 0 ? velocity : 0
        let briskness = wheelBriskness(gap: gap)
        let rows = Double(configuration.wheelStep * abs(notches)) * (1 + (configuration.wheelMaximumAcceleration - 1) * briskness)
        let gliding = carried != 0 ? rows : rows * briskness
        let jumped = (rows - gliding).rounded()
        motion = nil
        velocity = 0
        moveOffset(to: (carried != 0 ? contentOffset : contentOffset.rounded()) + jumped * direction)
        let speed = min(configuration.wheelMaximumSpeed, abs(carried) + gliding * configuration.decayRate)
        if speed > 0 {
            let glide = makeMomentum(velocity: speed * direction)
            if glide.endTime > now {
                motion = .momentum(glide)
                velocity = glide.initialVelocity
            }
        }
        gesture = .wheel(WheelBurst(lastNotch: now, direction: Int(direction)))
        setPhase(.interacting)
    }

    /// How fast notches come, 0 (slow: `wheelSlowGap` apart or more) to 1 (`wheelFastGap` or less).
    func wheelBriskness(gap: Double) -> Double {
        let slow = configuration.wheelSlowGap, fast = configuration.wheelFastGap
        guard gap.isFinite else { return 0 }
        return min(1, max(0, (slow - gap) / (slow - fast)))
    }

    func finishWheelBurst() {
        guard case .wheel = gesture else { return }
        var glide: Momentum?
        if case .momentum(let m)? = motion { glide = m }
        settle(velocity: velocity, glide: glide)
    }

    // MARK: Pointer

    func press(row: Int) {
        motion = nil
        velocity = 0
        var tracker = DragVelocityTracker(window: configuration.dragVelocityWindow)
        tracker.add(offset: contentOffset, at: now)
        gesture = .pointer(PointerGesture(pressRow: row, offsetAtPress: contentOffset, tracker: tracker))
        setPhase(.tracking)
    }

    func drag(row: Int) {
        guard case .pointer(var pointer) = gesture else { return }  // motion without a press
        guard pointer.moved || row != pointer.pressRow else { return }
        pointer.moved = true
        moveOffset(to: pointer.offsetAtPress + Double(pointer.pressRow - row))
        pointer.tracker.add(offset: contentOffset, at: now)
        velocity = pointer.tracker.velocity(at: now)
        gesture = .pointer(pointer)
        setPhase(.interacting)
    }

    func release() {
        guard case .pointer(let pointer) = gesture else { return }  // release without a press
        let v = pointer.moved ? pointer.tracker.velocity(at: now) : 0
        settle(velocity: v, glide: nil)
    }

    // MARK: Gesture end

    /// Ends the gesture: snap (projected mode), momentum, or rest.
    func settle(velocity v: Double, glide: Momentum?) {
        gesture = .none
        let v = min(max(v, -configuration.maximumSpeed), configuration.maximumSpeed)
        let moving = abs(v) >= configuration.minimumFlingSpeed || glide != nil
        let snapping = configuration.snapping
        if snapping.isEnabled && snapping.mode == .projected {
            let projected = moving ? Momentum.projectedEnd(position: contentOffset, velocity: v,
                                                           decayRate: configuration.decayRate) : contentOffset
            let target = snapTarget(forProjected: projected)
            let distance = target - contentOffset
            if abs(distance) > 1e-9 {
                let startVelocity = moving ? v : 0
                let duration = ScrollAnimation.velocityMatchingDuration(distance: distance, initialVelocity: startVelocity,
                                                                        preferred: snapDuration(distance: distance))
                let curve = ScrollAnimation(from: contentOffset, to: target, startTime: now, duration: duration,
                                            easing: .velocityMatching(initialVelocity: startVelocity))
                motion = .animation(curve, target: .offset(target))
                velocity = startVelocity
                observers.snapped(from: contentOffset, to: target)
                return setPhase(.decelerating)
            }
            motion = nil
            return setPhase(.idle)
        }
        if let glide, glide.endTime > now {
            motion = .momentum(glide)
            return setPhase(.decelerating)
        }
        if moving {
            let momentum = makeMomentum(velocity: v)
            if momentum.endTime > now {
                motion = .momentum(momentum)
                velocity = momentum.initialVelocity
                return setPhase(.decelerating)
            }
        }
        motion = nil
        setPhase(.idle)
    }

    func makeMomentum(velocity v: Double) -> Momentum {
        Momentum(start: contentOffset, velocity: v, decayRate: configuration.decayRate,
                 stopSpeed: configuration.stopSpeed, bounds: offsetBounds, at: now)
    }
}
