import Foundation

extension MatrixClient {
    /// A session of its own (cancelled apart) acting as the same user: the same token, and an
    /// application service's asserted user (`?user_id=`) kept.
    func separateSession() -> MatrixClient {
        MatrixClient(homeserver: homeserver, accessToken: accessToken, assertedUser: assertedUser)
    }
}
