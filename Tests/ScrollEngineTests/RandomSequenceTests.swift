import XCTest
@testable import ScrollEngine
@testable import ThreadModel

/// Seeded random sequences of inputs, content changes and clock advances, with invariant checks
/// after every step.
final class RandomSequenceTests: XCTestCase {
    func testRandomSequencesWithoutSnapping() {
        for seed in 1...12 { runSequence(seed: UInt64(seed), snapping: .none) }
    }

    func testRandomSequencesWithProjectedSnapping() {
        for seed in 100...108 { runSequence(seed: UInt64(seed), snapping: ScrollSnapping(targets: .itemBoundaries)) }
    }

    func testRandomSequencesWithAfterDebounceSnapping() {
        let snapping = ScrollSnapping(targets: .headerCollapse(HeaderCollapse(distance: 6)), mode: .afterDebounce)
        for seed in 200...208 { runSequence(seed: UInt64(seed), snapping: snapping) }
    }

    private func runSequence(seed: UInt64, snapping: ScrollSnapping, steps: Int = 400) {
        var rng = SeededRandom(seed: seed)
        var nextID = 0
        func batch(_ n: Int) -> [(id: Int, height: Int)] {
            (0..<n).map { _ in
                defer { nextID += 1 }
                return (nextID, Int.random(in: 0...6, using: &rng))
            }
        }
        var configuration = ScrollConfiguration()
        configuration.snapping = snapping
        let model = ScrollModel<Int>(containerRows: Int.random(in: 3...15, using: &rng), columns: 40,
                                     items: batch(Int.random(in: 0...40, using: &rng)),
                                     contentInsets: ScrollInsets(top: Int.random(in: 0...3, using: &rng)),
                                     configuration: configuration)
        let phaseLog = PhaseLog(model)  // asserts every transition is legal and chained

        // Geometry observers: each call is a real change, calls chain, and the last call's new
        // value is the current one.
        var drawn = model.geometry.drawnOffset, drawnCalls = 0
        model.observeGeometry({ $0.drawnOffset }) { old, new in
            XCTAssertNotEqual(old, new)
            XCTAssertEqual(old, drawn, "seed \(seed): calls not chained")
            drawn = new
            drawnCalls += 1
        }
        // The debounced end fires (at rest, pauses); the exact end (onIdle) fires once for every
        // move to idle.
        var endedCalls = 0, idleCalls = 0
        model.onScrollEnded { _ in endedCalls += 1 }
        model.onIdle { _ in idleCalls += 1 }
        var size = model.geometry.contentSize
        model.observeGeometry({ $0.contentSize }) { old, new in
            XCTAssertNotEqual(old, new)
            XCTAssertEqual(old, size)
            size = new
        }

        var t = 0.0
        var pressed = false
        for step in 0..<steps {
            let before = model.geometry.drawnOffset
            let callsBefore = drawnCalls
            let roll = Int.random(in: 0..<100, using: &rng)
            switch roll {
            case 0..<15:
                model.handle(.wheel(notches: Int.random(in: -2...2, using: &rng)), at: at(t))
            case 15..<22:
                model.handle(.press(row: Int.random(in: 0..<20, using: &rng)), at: at(t))
                pressed = true
            case 22..<37:
                model.handle(.drag(row: Int.random(in: -5..<25, using: &rng)), at: at(t))
            case 37..<44:
                model.handle(.release, at: at(t))
                pressed = false
            case 44..<51:
                model.handle(.key(ScrollKey.allCases.randomElement(using: &rng)!), at: at(t))
            case 51..<53:
                model.scrollToBottom(animated: Bool.random(using: &rng), at: at(t))
            case 53..<57:
                model.scrollTo(offset: Double.random(in: -10...300, using: &rng), animated: Bool.random(using: &rng), at: at(t))
            case 57..<60:
                if model.items.count > 0 {
                    let id = model.items.id(at: Int.random(in: 0..<model.items.count, using: &rng))
                    model.scrollTo(id: id, row: Int.random(in: 0...3, using: &rng),
                                   alignment: [.top, .center, .bottom].randomElement(using: &rng)!,
                                   animated: Bool.random(using: &rng), at: at(t))
                }
            case 60..<80:
                model.advance(to: at(t))
            default:
                checkContentChange(model, seed: seed, step: step) {
                    switch roll {
                    case 80..<85: model.append(batch(Int.random(in: 1...4, using: &rng)))
                    case 85..<90: model.prepend(batch(Int.random(in: 1...4, using: &rng)))
                    case 90..<93:
                        if model.items.count > 0 {
                            let id = model.items.id(at: Int.random(in: 0..<model.items.count, using: &rng))
                            model.updateHeight(id: id, height: Int.random(in: 0...8, using: &rng))
                        }
                    case 93..<95:
                        // A re-wrap at a new width: every height changes at once.
                        let all = model.items.items.map { (id: $0.id, height: Int.random(in: 0...8, using: &rng)) }
                        model.updateHeights(all)
                    case 95..<97:
                        model.setContentInsets(ScrollInsets(top: Int.random(in: 0...3, using: &rng), bottom: Int.random(in: 0...2, using: &rng)))
                    default: model.setContainer(rows: Int.random(in: 1...15, using: &rng), columns: 40)
                    }
                }
            }
            model._checkInvariants()
            XCTAssertEqual(drawn, model.geometry.drawnOffset, "seed \(seed) step \(step): observer missed a change")
            if model.geometry.drawnOffset != before { XCTAssertGreaterThan(drawnCalls, callsBefore) }
            XCTAssertEqual(size, model.geometry.contentSize)
            if let motion = model.motion {
                XCTAssertLessThan(motion.endTime - model.now, 30, "seed \(seed): a motion that does not end")
            }
            t += [0, 0.004, 0.016, 0.03, 0.07, 0.2, 0.6].randomElement(using: &rng)!
        }
        if pressed { model.handle(.release, at: at(t)) }
        model.settle(limit: 60)
        XCTAssertEqual(model.phase, .idle, "seed \(seed): never came to rest")
        XCTAssertNil(model.nextDeadline, "seed \(seed): timers left at rest")
        model._checkInvariants()
        XCTAssertFalse(phaseLog.changes.isEmpty)
        XCTAssertEqual(idleCalls, phaseLog.changes.filter { $0.new == .idle }.count, "seed \(seed): onIdle missed a move to idle")
        XCTAssertGreaterThan(endedCalls, 0, "seed \(seed): the debounced end never fired")
    }

    /// A content change keeps the reading position: following at the bottom, or the anchor item
    /// on the top row with its row rescaled by a height change (unless clamped at a bound).
    private func checkContentChange(_ model: ScrollModel<Int>, seed: UInt64, step: Int, _ change: () -> Void) {
        let follows = model.phase == .idle && model.isAtBottom
        let anchor = model.anchor
        let oldHeight = anchor.flatMap { model.items.height(of: $0.id) }
        change()
        if follows {
            XCTAssertTrue(model.isAtBottom, "seed \(seed) step \(step): stopped following")
            return
        }
        guard model.phase != .animating, let anchor, let oldHeight,
              let start = model.items.offset(of: anchor.id), let height = model.items.height(of: anchor.id) else { return }
        let bounds = model.offsetBounds
        if model.contentOffset == bounds.lowerBound || model.contentOffset == bounds.upperBound { return }  // clamped
        // Independently of the model's own rescale: the anchor item is still on the top row, at
        // the same row if its height did not change, else at a row inside it, the same share down.
        let row = model.contentOffset - Double(start)
        if height == 0 { return }  // the item vanished from the rows; the next one is on top
        if height == oldHeight || anchor.row < 0 || anchor.row >= Double(oldHeight) {
            XCTAssertEqual(row, anchor.row, accuracy: 1e-6, "seed \(seed) step \(step): the anchor moved")
        } else {
            XCTAssertTrue(row >= 0 && row < Double(height), "seed \(seed) step \(step): the anchor left its item")
            XCTAssertLessThanOrEqual(abs(row / Double(height) - anchor.row / Double(oldHeight)), 2.0 / Double(min(height, oldHeight)) + 1e-9,
                                     "seed \(seed) step \(step): not the same share down the item")
        }
    }
}
