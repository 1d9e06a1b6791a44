import ScrollEngine

/// The effects running on comments, by comment id; none at all with reduced motion.
///
/// Starting an effect says what changes; the state it ends in (a spoiler revealed) is set by
/// its owner at once, so with motion reduced, or once the effect ends, the picture is the same.
struct TextEffects {
    /// `--reduce-motion` or `COMMENT_TUI_REDUCE_MOTION=1`: end states show at once.
    var reduceMotion = false
    private var running: [String: [TextEffect]] = [:]

    /// Starts `kind` on a comment at `time`, replacing one of the same kind (or on the same
    /// spoiler) that still runs.
    mutating func start(_ kind: TextEffect.Kind, on commentID: String, at time: ScrollInstant) {
        guard !reduceMotion else { return }
        var list = running[commentID, default: []].filter { !Self.sameTarget($0.kind, kind) }
        list.append(TextEffect(kind: kind, start: time))
        running[commentID] = list
    }

    /// The effects on a comment still running at `time`.
    func effects(on commentID: String, at time: ScrollInstant) -> [TextEffect] {
        running[commentID]?.filter { !$0.isFinished(at: time) } ?? []
    }

    /// Forgets the effects that have ended by `time`.
    mutating func removeFinished(at time: ScrollInstant) {
        guard !running.isEmpty else { return }
        running = running.compactMapValues { list in
            let left = list.filter { !$0.isFinished(at: time) }
            return left.isEmpty ? nil : left
        }
    }

    /// When some effect's picture next changes after `time`; nil when none runs (no frames).
    func nextChange(after time: ScrollInstant) -> ScrollInstant? {
        running.values.lazy.flatMap { $0 }.compactMap { $0.nextChange(after: time) }.min()
    }

    /// Whether any effect runs.
    var isEmpty: Bool { running.isEmpty }

    private static func sameTarget(_ a: TextEffect.Kind, _ b: TextEffect.Kind) -> Bool {
        switch (a, b) {
        case (.spoiler(let x, _), .spoiler(let y, _)): x == y
        default: a == b
        }
    }
}
