import Foundation
import ThreadModel

/// An encrypted room's members handed to the account's keys to follow, so their devices are
/// read and their trust shows on their comments and on F4's page before anyone writes (sending
/// follows them too, and an Olm message its sender). Again when the number of members moved;
/// counted, not listed, on each sync: a big room's list is sorted each time it is made.
extension MatrixTimeline {
    mutating func followMembers() {
        guard isEncrypted, var decryption, decryption.followedMemberCount != members.names.count else { return }
        decryption.followedMemberCount = members.names.count
        decryption.keys.followLater(members.names.keys)
        self.decryption = decryption
    }
}
