/// A user registered on the test homeserver, with the credentials of its first device.
public struct MatrixTestAccount: Sendable, Equatable {
    /// The full Matrix user ID, e.g. `@ann:test.local`.
    public let userID: String
    /// The access token of the device registration created.
    public let accessToken: String
    /// The device ID registration created.
    public let deviceID: String
    /// The password the account was registered with (for login tests).
    public let password: String
}
