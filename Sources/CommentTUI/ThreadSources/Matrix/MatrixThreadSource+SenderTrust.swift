import Foundation
import ThreadModel

/// A sender's trust in an encrypted room, from the account's keys (`MatrixRoomKeys+SenderTrust`);
/// nothing in a clear room.
extension MatrixThreadSource {
    public func senderTrust(_ userID: String) -> SenderTrust? {
        // The keys' lock is never taken here: the UI thread asks, a send may hold it.
        let keys = locked { timeline.isEncrypted ? timeline.decryption?.keys : nil }
        return keys?.senderTrust(of: userID)
    }

    public func memberDevices(_ userID: String) -> [MemberDevice]? {
        let keys = locked { timeline.isEncrypted ? timeline.decryption?.keys : nil }
        return keys?.memberDevices(of: userID)
    }
}
