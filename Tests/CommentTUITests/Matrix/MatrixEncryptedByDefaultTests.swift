import Foundation
import XCTest
import SynapseFixture
import ThreadModel
@testable import CommentTUI

/// A homeserver that switches end-to-end encryption on in every new room (as some do for
/// private rooms): `new` must not post its first message into one in plaintext. A server of its
/// own, set up so.
final class MatrixEncryptedByDefaultTests: XCTestCase {
    private var server: SynapseServer!

    override func setUpWithError() throws {
        server = SynapseServer(settings: ["encryption_enabled_by_default_for_room_type: all"])
        try server.start()
    }

    override func tearDown() {
        server.stop()
        server = nil
    }

    func testNewRefusesToPostIntoARoomTheServerMadeEncryptedAndKeepsTheRoom() throws {
        let ann = try registerUser("ann", on: server)
        let config = NSTemporaryDirectory() + "config-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: config) }
        let environment = ["XDG_CONFIG_HOME": config, "HOME": config]
        var accounts = try MatrixAccounts(path: XCTUnwrap(MatrixAccounts.path(environment: environment)))
        accounts.add(.init(userID: ann.account.userID, homeserver: server.baseURL.absoluteString, accessToken: ann.account.accessToken,
                           deviceID: "ANNDEVICE"))
        try accounts.save()
        var output = ""
        var errors = ""
        let context = CommandContext(environment: environment, now: Date.init,
                                     writeOutput: { output += String(decoding: $0, as: UTF8.self) }, writeError: { errors += $0 },
                                     readInput: { _ in [] }, inputIsTerminal: false)

        let status = Verb.new.run(["matrix:", "--title", "Meant to be open", "--body", "the post, never in plaintext"], context: context)
        XCTAssertEqual(status, 1, "\(output) \(errors)")
        XCTAssertTrue(errors.contains("end-to-end encrypted") && errors.contains("nothing was posted"), errors)
        // The room is kept, named on the output, and holds no message.
        let room = output.trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(room.hasPrefix("!"), output)
        XCTAssertTrue(errors.contains(room), errors)
        XCTAssertNotNil(try? ann.other.call("GET", "/_matrix/client/v3/rooms/\(room)/state/m.room.encryption/"))
        XCTAssertEqual(try ann.other.messageBodies(roomID: room), [])
    }
}
