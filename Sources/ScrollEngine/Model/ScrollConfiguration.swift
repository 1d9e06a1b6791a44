/// Tuning of a scroll model: wheel, drag, physics, animation, debounce and snapping.
/// Distances are in rows, times in seconds, speeds in rows per second.
public struct ScrollConfiguration: Hashable, Sendable {
    /// Rows moved by one isolated wheel notch (the precise step).
    var wheelStep: Int = 3
    /// Notches at least this far apart are slow: each moves `wheelStep` rows at once, no glide.
    public var wheelSlowGap: Double = 0.1
    /// Notches this close together (or read at once) are as fast as notches get: each moves
    /// `wheelMaximumAcceleration` steps, all of it as glide. Between the two gaps a notch's
    /// distance and the part of it that glides grow linearly, so the response has no step.
    public var wheelFastGap: Double = 0.02
    /// A wheel burst ends after this long without notches (terminals send no "finger up").
    public var wheelQuietPeriod: Double = 0.12
    /// The most steps one notch moves (at the fastest notch rate).
    public var wheelMaximumAcceleration: Double = 4
    /// A wheel's glide is capped at this (a free-spinning wheel); drags use `maximumSpeed`.
    public var wheelMaximumSpeed: Double = 800
    /// Momentum decay rate k in `v(t) = v0·e^(−k·t)`.
    var decayRate: Double = 6
    /// Momentum stops (at its projected end) once slower than this.
    var stopSpeed: Double = 0.5
    /// A gesture ending slower than this leaves no momentum.
    public var minimumFlingSpeed: Double = 3
    /// Gesture velocities are capped at this.
    public var maximumSpeed: Double = 400
    /// A drag's release velocity is measured over this last stretch of time.
    public var dragVelocityWindow: Double = 0.1
    /// Quiet interval of the debounced "scroll ended" (the SwiftUI collapsing-header talk's 50 ms).
    public var scrollEndedDebounce: Double = 0.05
    /// Duration of animated `scrollTo` calls.
    public var animationDuration: Double = 0.25
    /// Curve of animated moves started from rest (moves started in motion match its velocity).
    public var animationEasing: ScrollEasing = .easeOutCubic
    /// Duration of the row-key animation.
    public var rowKeyDuration: Double = 0.08
    /// Duration of the page-key animation.
    public var pageKeyDuration: Double = 0.18
    /// Duration of the top and bottom key animations.
    public var jumpKeyDuration: Double = 0.3
    /// Preferred duration of a move to a snap target (shortened for fast, short moves).
    public var snapDuration: Double = 0.3
    /// Where and when the scroll snaps.
    public var snapping: ScrollSnapping = .none

    /// The default configuration.
    public init() {}
}
