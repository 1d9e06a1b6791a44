import Foundation
import XCTest

/// Bounded polling: how the tmux tests wait. They wait for a condition (a file appears, a
/// capture shows a text, two captures agree), never for a fixed time, and give up at a deadline.
enum Waiting {
    /// The pause between two checks of a condition; the only pause the tmux tests make.
    static let interval = 0.05

    /// Checks `condition` until it holds or `timeout` seconds of real time pass; returns whether it held.
    static func poll(timeout: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(timeout * 1000))
        while true {
            if try condition() { return true }
            guard clock.now < deadline else { return false }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// Checks `condition` until it holds; after `timeout` seconds fails the test, saying what was
    /// awaited and what `state` shows then, and throws.
    static func until(_ what: String, timeout: Double = 20, state: () -> String = { "" },
                      file: StaticString = #filePath, line: UInt = #line, _ condition: () throws -> Bool) throws {
        guard try !poll(timeout: timeout, condition) else { return }
        let shown = state()
        XCTFail("timed out after \(timeout) s waiting for \(what)" + (shown.isEmpty ? "" : "; state:\n\(shown)"), file: file, line: line)
        throw TmuxTestError("gave up waiting for \(what)")
    }
}
