import Foundation
import ThreadModel

/// An encrypted room's members handed to the account's keys to follow, so their devices are
/// read and their trust shows on their comments and on F4's page before anyone writes (sending
/// follows them too, and an Olm message its sender). Again when the number of members moved.
extension MatrixTimeline {
    mutating func followMembers() {
        guard isEncrypted, var decryption, decryption.followedMemberCount != members.users.count else { return }
        decryption.followedMemberCount = members.users.count
        decryption.keys.followLater(members.users.map(\.id))
        self.decryption = decryption
    }
}
