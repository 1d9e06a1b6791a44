import XCTest
@testable import ThreadModel

/// Every test that measures real elapsed time, in one suite: its bounds depend on the machine
/// and its load, so it can be run alone or left out (`swift test --skip WallClockTests`)
/// without losing any test of behaviour. (The tmux tests are real-terminal tests of their own.)
final class WallClockTests: XCTestCase {
    /// Seconds `body` takes, on the monotonic clock.
    private func seconds(_ body: () -> Void) -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        body()
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }

    /// CPU seconds this thread spends in `body`: for ratios of a small and a large run, which
    /// other processes on a loaded machine would otherwise skew (a short run fits in one time
    /// slice, a long one is preempted), making a linear parse look 10x slower at 4x the input.
    private func cpuSeconds(_ body: () -> Void) -> Double {
        func now() -> Double {
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
        let start = now()
        body()
        return now() - start
    }

    /// Time for n and 4n repetitions: a linear parser takes about 4x, a quadratic one 16x.
    func testPathologicalInputsScaleLinearly() {
        let handles: (String) -> String? = { $0 == "x" ? "u1" : nil }
        func best(_ text: String) -> Double {
            (0..<3).map { _ in cpuSeconds { _ = CommentMarkup.parse(text, handles: handles) } }.min()!
        }
        let small = PathologicalInputs.all(1500)
        let large = PathologicalInputs.all(6000)
        for (s, l) in zip(small, large) {
            // Up to three measurements, as below: load swings a few milliseconds, not 16x.
            var ratios: [String] = []
            for _ in 0..<3 {
                let t1 = max(best(s.text), 0.002)
                let t4 = best(l.text)
                XCTAssertLessThan(t4, 10, s.name)
                if t4 / t1 < 9 { break }
                ratios.append("\(t1)s for n, \(t4)s for 4n")
            }
            XCTAssertLessThan(ratios.count, 3, "\(s.name): \(ratios)")
        }
    }

    /// Escaping parses a few times per round and stops after a bounded number of rounds: as
    /// linear as the parser, also on nesting built to need one round per level. Timings of a
    /// few milliseconds swing with the machine's load: a ratio is measured up to three times,
    /// and a quadratic escape (16x) fails every time.
    func testEscapingSpoilersAndRubyScalesLinearly() {
        func best(_ text: String) -> Double {
            (0..<3).map { _ in cpuSeconds { _ = CommentMarkup.escapingSpoilersAndRuby(text) } }.min()!
        }
        for (s, l) in zip(PathologicalInputs.all(1500), PathologicalInputs.all(6000)) {
            var ratios: [String] = []
            for _ in 0..<3 {
                let t1 = max(best(s.text), 0.002)
                let t4 = best(l.text)
                if t4 / t1 < 9 { break }
                ratios.append("\(t1)s for n, \(t4)s for 4n")
            }
            XCTAssertLessThan(ratios.count, 3, "\(s.name): \(ratios)")
        }
        let spoilersAndBraces = String(repeating: "{a|b ||", count: 50_000)
        XCTAssertLessThan(seconds { _ = CommentMarkup.escapingSpoilersAndRuby(spoilersAndBraces) }, 10, "50,000 × {a|b ||")
    }

    func testManyRunsBuildInLinearTime() {
        let body = String(repeating: "*a* b ", count: 30_000)
        var runs = 0
        let elapsed = seconds { runs = CommentMarkup.parse(body, users: []).runs.count }
        XCTAssertEqual(runs, 60_000)
        XCTAssertLessThan(elapsed, 20, "30,000 emphasised runs")
    }
}
