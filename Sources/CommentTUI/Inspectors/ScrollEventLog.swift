import Foundation
import ScrollEngine

/// The feed's scroll observer events, newest last, for the F3 panel: geometry changes, phase
/// changes with their velocity, debounced ends and snaps.
final class ScrollEventLog {
    /// Events kept; older ones are dropped.
    static let capacity = 200
    private(set) var lines: [String] = []
    private var clock: () -> ScrollInstant = { .zero }

    /// Starts recording a model's events.
    func observe(_ model: ScrollModel<Int>) {
        clock = { [unowned model] in model.now }
        model.observeGeometry({ $0.drawnOffset }) { [unowned self] old, new in
            record("offset \(old) → \(new)")
        }
        model.observeGeometry({ $0.contentSize.rows }) { [unowned self] old, new in
            record("content \(old) → \(new) rows")
        }
        model.observeGeometry({ $0.containerSize.rows }) { [unowned self] old, new in
            record("viewport \(old) → \(new) rows")
        }
        model.observePhase { [unowned self] old, new, context in
            record("phase \(old.rawValue) → \(new.rawValue) v=\(Self.format(context.velocity)) rows/s")
        }
        model.onScrollEnded { [unowned self] geometry in
            record("debounced end at \(Self.format(geometry.contentOffset))")
        }
        model.onSnap { [unowned self] from, to in
            record("snap \(Self.format(from)) → \(Self.format(to))")
        }
    }

    func record(_ text: String) {
        lines.append(String(format: "%9.3f ", clock().seconds) + text)
        if lines.count > Self.capacity { lines.removeFirst(lines.count - Self.capacity) }
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }

    /// Draws the newest events in the lower part of the feed, over it.
    func draw(into buffer: inout CellBuffer, rect: CellRect) {
        let height = max(1, min(rect.height, rect.height / 2 + 1))
        let top = rect.maxRow - height
        let end = rect.column + rect.width - 1
        buffer.fill(row: top, from: rect.column, to: end, style: Theme.eventPanel)
        buffer.write(" scroll events (F3 closes)", column: rect.column, row: top, style: Theme.eventPanel.adding(.bold), limit: end)
        let shown = lines.suffix(height - 1)
        for (i, line) in shown.enumerated() {
            let row = top + 1 + i
            buffer.fill(row: row, from: rect.column, to: end, style: Theme.eventPanel)
            buffer.write(" " + line, column: rect.column, row: row, style: Theme.eventPanel, limit: end)
        }
    }
}
