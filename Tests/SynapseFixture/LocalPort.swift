import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Free TCP ports on 127.0.0.1, found by letting the kernel pick one.
enum LocalPort {
    /// Ports handed out by this process: a port is closed again until its server binds it, and
    /// the kernel may offer it twice meanwhile (servers are started together).
    nonisolated(unsafe) private static var given: Set<Int> = []
    private static let lock = NSLock()

    /// A port no server of this process was given before, free when asked.
    static func free() throws -> Int {
        for _ in 0..<100 {
            let port = try kernelChoice()
            if lock.withLock({ given.insert(port).inserted }) { return port }
        }
        throw SynapseFixtureError("picking a free port failed: the kernel kept offering ports already given")
    }

    /// Binds a socket to 127.0.0.1:0, reads the port the kernel chose, and closes it.
    private static func kernelChoice() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SynapseFixtureError("picking a free port failed: socket() errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw SynapseFixtureError("picking a free port failed: bind() errno \(errno)") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw SynapseFixtureError("picking a free port failed: getsockname() errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
