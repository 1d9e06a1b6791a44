import XCTest
@testable import ScrollEngine

/// Instant `seconds` after the origin.
func at(_ seconds: Double) -> ScrollInstant { ScrollInstant(seconds: seconds) }

/// Items with ids `first`, `first + 1`, … and the given heights.
func makeItems(_ heights: [Int], first: Int = 0) -> [(id: Int, height: Int)] {
    heights.enumerated().map { (first + $0.offset, $0.element) }
}

/// `count` items of height `height`, ids from `first`.
func uniformItems(_ count: Int, height: Int = 1, first: Int = 0) -> [(id: Int, height: Int)] {
    (0..<count).map { (first + $0, height) }
}

/// Records phase changes and checks each against the transition table.
final class PhaseLog {
    private(set) var changes: [(old: ScrollPhase, new: ScrollPhase, context: ScrollPhaseContext)] = []

    init<ID>(_ model: ScrollModel<ID>) {
        model.observePhase { [unowned self] old, new, context in
            XCTAssertTrue(ScrollPhase.isLegalTransition(from: old, to: new), "illegal \(old) → \(new)")
            XCTAssertNotEqual(old, new)
            if let last = changes.last { XCTAssertEqual(last.new, old, "phase changes are not chained") }
            changes.append((old, new, context))
        }
    }

    var pairs: [String] { changes.map { "\($0.old.rawValue)→\($0.new.rawValue)" } }
}

/// A 20-row, 40-column model over `count` one-row items (offsets 0…count−20).
func makeModel(count: Int = 200, height: Int = 1, rows: Int = 20,
               configure: (inout ScrollConfiguration) -> Void = { _ in }) -> ScrollModel<Int> {
    var configuration = ScrollConfiguration()
    configure(&configuration)
    return ScrollModel(containerRows: rows, columns: 40, items: uniformItems(count, height: height),
                       configuration: configuration)
}

extension ScrollModel {
    /// Advances in frame-sized steps up to `end`, checking invariants at each one.
    func run(until end: ScrollInstant, frame: Double = 1.0 / 60) {
        var t = now
        while t < end {
            t = min(end, t + frame)
            advance(to: t)
            _checkInvariants(checkItems: false)
        }
    }

    /// Advances until the model is idle with nothing pending (or `limit` seconds pass).
    func settle(limit: Double = 30) {
        let end = now + limit
        while let deadline = nextDeadline, now < end {
            advance(to: max(deadline, now + 1.0 / 60))
            _checkInvariants(checkItems: false)
        }
    }
}
