import Foundation
import SynapseFixture
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Restart keeps the port and the data; stop leaves no process behind.
final class SynapseLifecycleTests: XCTestCase {
    func testRestartKeepsPortAndDataAndStopLeavesNoProcess() throws {
        let server = SynapseServer(serverName: "restart.test")
        try server.start()
        defer { server.stop() }
        let ann = try server.register(localpart: "ann")
        let roomID = try server.client(for: ann).createRoom(name: "Kept")
        try server.client(for: ann).sendText(roomID: roomID, body: "before restart")
        let url = server.baseURL
        let firstPID = try XCTUnwrap(server.pid)

        try server.restart()

        XCTAssertEqual(server.baseURL, url)
        XCTAssertNotEqual(server.pid, firstPID)
        let firstProbe = kill(firstPID, 0)
        let firstProbeError = errno
        XCTAssertEqual(firstProbe, -1)
        XCTAssertEqual(firstProbeError, ESRCH)
        XCTAssertEqual(try server.client(for: ann).messageBodies(roomID: roomID), ["before restart"])

        let secondPID = try XCTUnwrap(server.pid)
        server.stop()
        server.stop()
        XCTAssertFalse(server.isRunning)
        let probe = kill(secondPID, 0)
        let probeError = errno
        XCTAssertEqual(probe, -1)
        XCTAssertEqual(probeError, ESRCH)
    }

    func testProvisionIsIdempotentAndPinned() throws {
        let python = try SynapseServer.provision()
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: python.path))
        XCTAssertEqual(try SynapseServer.provision(), python)
    }
}
