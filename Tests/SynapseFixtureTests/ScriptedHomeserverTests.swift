import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif
@testable import SynapseFixture

/// The scripted homeserver cleans up after itself: one no test holds any more stops listening.
final class ScriptedHomeserverTests: XCTestCase {
    /// Whether something accepts connections on 127.0.0.1:`port`; with `request`, sends it.
    private func listens(on port: Int, request: String? = nil) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
        if connected, let request { _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
        return connected
    }

    func testAServerNoLongerHeldStopsListening() throws {
        var server: ScriptedHomeserver? = try ScriptedHomeserver { _ in .versions }
        let port = try XCTUnwrap(server?.port)
        // A request answered: the accept loop is running (a server released before it starts
        // would stop however the loop held it).
        XCTAssertTrue(listens(on: port, request: "GET /_matrix/client/versions HTTP/1.1\r\nHost: x\r\n\r\n"))
        let served = Date().addingTimeInterval(10)
        while server?.requests.isEmpty == true, Date() < served { usleep(50_000) }
        XCTAssertEqual(server?.requests.count, 1)
        usleep(300_000)
        weak let released = server
        server = nil
        // The accept loop lets go of it within one 0.2 s wait; a loaded machine gets 10 s.
        let deadline = Date().addingTimeInterval(10)
        while released != nil || listens(on: port), Date() < deadline { usleep(100_000) }
        XCTAssertNil(released, "nothing keeps the server alive")
        XCTAssertFalse(listens(on: port), "its listener is closed")
    }
}
