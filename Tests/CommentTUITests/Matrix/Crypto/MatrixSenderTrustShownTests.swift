import Foundation
import MatrixCrypto
import SynapseFixture
import ThreadModel
import XCTest
import CommentTUITestSupport
@testable import CommentTUI

/// Senders' trust through the whole client against Synapse: Bo's matrix-nio device, never
/// cross-signed, writes in the encrypted room; once Ann's keys read his devices, his comment's
/// header carries the small unverified mark and F4 lists his device as not signed by him.
final class MatrixSenderTrustShownTests: SharedSynapseTestCase {
    func testAnUnverifiedSendersCommentAndDevicesSaySo() throws {
        let room = try encryptedRoom()
        let keys = try keys(of: room)
        try nioSends(["from Bo's own device"], in: room)
        let (source, sync) = try open(room, keys: keys)
        defer { source.stop(); sync.stop() }
        let bo = room.bo.account.userID
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 20)
        let pilot = Pilot(app: app, screen: HeadlessScreen(columns: 100, rows: 20))
        if source.memberDevices(bo)?.isEmpty != false {
            app.receive(try collectUpdates(from: source, timeout: 20) { _ in source.memberDevices(bo)?.isEmpty == false })
        }
        app.receive(source.takeUpdates())
        pilot.draw()
        var lines = pilot.screen.lines
        let body = try XCTUnwrap(lines.firstIndex { $0.contains("from Bo's own device") }, lines.joined(separator: "\n"))
        let header = try XCTUnwrap(lines[..<body].last { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        XCTAssertTrue(header.contains(" \(CommentHeaderLayout.unverifiedText) "), "the small mark on Bo's header: \(header)")
        XCTAssertFalse(header.contains(CommentHeaderLayout.identityChangedText))

        pilot.feed("\u{1B}OS")
        pilot.draw()
        lines = pilot.screen.lines
        XCTAssertTrue(lines.contains { $0.contains("? not verified") }, lines.joined(separator: "\n"))
        XCTAssertTrue(lines.contains { $0.contains("? not signed by its owner") }, lines.joined(separator: "\n"))
        sync.roomKeys = nil
    }
}
