import XCTest
import SynapseFixture

/// Test classes that stop and start their homeserver: a Synapse of each test's own, started in
/// `setUpWithError()` and stopped by its pid in `tearDown()`, so no test meets another's outage.
open class OwnSynapseTestCase: XCTestCase {
    /// This test's server; a test may stop it, start it again or put another in its place.
    public var server: SynapseServer!

    override open func setUpWithError() throws {
        server = SynapseServer()
        try server.start()
    }

    override open func tearDown() {
        server.stop()
        server = nil
    }
}
