import Foundation

/// A set of homeservers, shared by threads for the process.
final class MatrixHomeserverSet: @unchecked Sendable {
    private let lock = NSLock()
    private var servers: Set<URL> = []

    /// Whether `server` is in the set.
    func contains(_ server: URL) -> Bool { lock.withLock { servers.contains(server) } }
    /// Puts `server` in the set.
    func insert(_ server: URL) { _ = lock.withLock { servers.insert(server) } }
}
