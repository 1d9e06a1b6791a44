import Foundation
import SynapseFixture
import XCTest

/// One Synapse for the test run's classes that share one, started before the first of them and
/// stopped by its pid when the test bundle finishes (starting one takes seconds, and some sixty
/// classes share it); users are registered per test with unique names so tests do not meet.
public enum SharedSynapse {
    nonisolated(unsafe) public static var server: SynapseServer?
    /// Stops the server when the bundle finishes; registered with the first start.
    nonisolated(unsafe) private static var stopper: BundleEnd?

    public static func start() throws -> SynapseServer {
        if let server, server.isRunning { return server }
        let server = SynapseServer()
        try server.start()
        Self.server = server
        if stopper == nil {
            let end = BundleEnd()
            XCTestObservationCenter.shared.addTestObserver(end)
            stopper = end
        }
        return server
    }

    public static func stop() {
        server?.stop()
        server = nil
    }

    /// Stops the shared server, by its pid, as the test bundle ends.
    private final class BundleEnd: NSObject, XCTestObservation {
        func testBundleDidFinish(_ testBundle: Bundle) { SharedSynapse.stop() }
    }
}

/// Terminal test classes on the run's one Synapse (`SharedSynapse`), for those that never stop
/// or replace their server: they start none of their own.
open class RunSynapseTestCase: XCTestCase {
    /// The run's server (started again if something stopped it).
    public var server: SynapseServer!

    override open func setUpWithError() throws {
        server = try SharedSynapse.start()
    }
}
