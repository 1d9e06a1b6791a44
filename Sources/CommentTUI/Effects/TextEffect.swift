import ScrollEngine

/// A transition drawn over a comment's cells for a moment, as the TextRenderer articles animate
/// text glyph by glyph: the renderer reads the effect's progress at the frame's time (injected,
/// never the clock) and draws each cell accordingly.
struct TextEffect: Equatable, Sendable {
    /// What the effect does.
    enum Kind: Hashable, Sendable {
        /// A spoiler's cells uncovered (or covered again) one by one, in a scattered order.
        case spoiler(Int, revealing: Bool)
        /// A comment that arrived while the feed followed the tail, revealed left to right.
        case arrival
        /// A comment that mentions the reader: a highlight on its header that fades.
        case mentionGlow
        /// The comment a jump went to (Alt-U, a search): its header flashes once.
        case headerFlash
        /// A new reaction on the comment: its reaction row flashes once.
        case reactionFlash

        /// How long it runs, in seconds.
        var duration: Double {
            switch self {
            case .spoiler: 0.3
            case .arrival: 0.25
            case .mentionGlow: 2
            case .headerFlash, .reactionFlash: 0.6
            }
        }

        /// How many different pictures it has: a frame is asked for only when the picture
        /// changes (every frame slot for the moving ones, a colour step for the fades).
        var steps: Int {
            switch self {
            case .spoiler, .arrival: max(1, Int((duration * 60).rounded()))
            case .mentionGlow, .headerFlash, .reactionFlash: EffectPalette.rampSteps
            }
        }
    }

    let kind: Kind
    /// When it started.
    let start: ScrollInstant

    /// How far along it is at `time`: 0 at the start, 1 at the end (and after).
    func progress(at time: ScrollInstant) -> Double {
        min(1, max(0, (time - start) / kind.duration))
    }

    /// Whether its end state is all it draws from `time` on.
    func isFinished(at time: ScrollInstant) -> Bool { time - start >= kind.duration }

    /// When its picture next changes after `time` (its end, at the latest); nil once finished.
    func nextChange(after time: ScrollInstant) -> ScrollInstant? {
        guard !isFinished(at: time) else { return nil }
        let steps = Double(kind.steps)
        let step = ((time - start) / kind.duration * steps + 1e-9).rounded(.down) + 1
        return start + min(kind.duration, step / steps * kind.duration)
    }
}
