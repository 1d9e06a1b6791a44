import Foundation

/// Why a benchmark could not run, for its row in the table.
struct BenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Failures counted from several threads (sends while filling a room).
/// `@unchecked Sendable`: `count` is only touched under `lock`.
final class FailureCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func add() { lock.withLock { count += 1 } }
}
