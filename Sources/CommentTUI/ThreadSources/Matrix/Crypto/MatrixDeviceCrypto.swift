import Foundation
import MatrixCrypto
import ThreadModel

/// One signed-in device as end-to-end encryption sees it: its Olm account (identity, one-time
/// and fallback keys) kept in the account's crypto store, and those keys on the server.
/// Blocking (store writes are fsynced, uploads are requests), so it is used off the UI thread,
/// by one owner at a time.
///
/// Keys are stored before they are uploaded and marked published only after the server took
/// them: a crash between the two re-uploads the same keys (the server keeps one copy of each
/// key id), never publishes a key whose private half was lost.
final class MatrixDeviceCrypto {
    /// This device cannot take part in encryption: its identity is gone (its store was lost, or
    /// the server holds other keys for its id). Peers know a device by its first keys and ignore
    /// new ones, so the only way on is a new device: logging in again.
    struct IdentityLost: Error, Equatable, CustomStringConvertible {
        let reason: String
        var description: String {
            "this device's encryption keys are lost (\(reason)); log in again to make a new device for encrypted rooms"
        }
    }

    let userID: String
    let deviceID: String
    let store: CryptoStore
    /// The device's Olm account, as last stored.
    private(set) var account: OlmAccount
    /// Makes keys and Olm/Megolm sessions (tests inject a seeded source).
    var random: AnyRandomSource

    /// The store's collection of the one Olm account (id `account`).
    static let accounts = CryptoStoreCollection<OlmAccount>("olm-account")
    /// Facts about the device on the server (id `device-keys-uploaded`).
    static let deviceFlags = CryptoStoreCollection<Bool>("device-flags")

    /// Opens the device's store (made on first use) and its account, made and stored on first
    /// use. A store that had to be set aside (`store.loss`) held this device's identity, so the
    /// device cannot go on: that throws `IdentityLost` rather than making a second identity
    /// under the same device id. `random` makes keys; the store draws its own (`storeRandom`),
    /// so no two consumers ever replay one stream.
    init(userID: String, deviceID: String, location: CryptoStoreLocation, random: any RandomSource = SystemRandom(),
         storeRandom: any RandomSource = SystemRandom()) throws {
        self.userID = userID
        self.deviceID = deviceID
        self.random = AnyRandomSource(random)
        store = try CryptoStore.open(at: location, random: storeRandom)
        if let stored = try store.value("account", in: Self.accounts) {
            account = stored
        } else if let loss = store.loss {
            throw IdentityLost(reason: loss.description)
        } else {
            account = try OlmAccount(random: &self.random)
            try store.put(account, id: "account", in: Self.accounts)
        }
    }

    /// The device's Ed25519 fingerprint key, unpadded base64 (what people compare).
    var fingerprint: String { UnpaddedBase64.encode(account.ed25519Key) }
    /// The device's Curve25519 identity key, unpadded base64 (its Olm address).
    var identityKey: String { UnpaddedBase64.encode(account.curve25519Key) }

    /// The account as just stored with another change (a one-time key used by a new session).
    func replaceAccount(_ stored: OlmAccount) { account = stored }

    /// Whether the device keys were uploaded (once per device).
    var deviceKeysUploaded: Bool { (try? store.value("device-keys-uploaded", in: Self.deviceFlags)) == true }

    /// Uploads what the server lacks: the device keys the first time, and one-time and fallback
    /// keys as `replenishment` says (from sync's counts; `nil`: the first upload, top up fully).
    /// Returns the server's count of our one-time keys after the upload.
    @discardableResult
    func uploadKeys(client: MatrixClient, replenishment: KeyReplenishment? = nil) throws -> Int? {
        let plan = replenishment ?? KeyReplenishment(serverCount: 0, unusedFallbackTypes: nil)
        let firstTime = !deviceKeysUploaded
        if firstTime { try checkServerHasNoOtherIdentity(client: client) }
        var changed = account
        // Keys stored but not confirmed (a crash or failure after the last store) go up as they are.
        if plan.oneTimeKeys > 0, changed.unpublishedOneTimeKeys.isEmpty {
            try changed.generateOneTimeKeys(plan.oneTimeKeys, random: &random)
        }
        // A new fallback key only when there is none, or the server says ours was used; never
        // over one stored but not confirmed (it goes up as it is).
        let unpublishedFallback = changed.fallbackKeyJSON["curve25519"]?.object?.isEmpty == false
        if !unpublishedFallback, !changed.hasFallbackKey || plan.fallbackKey {
            try changed.generateFallbackKey(random: &random)
        }
        let body = try changed.keysUploadBody(userID: userID, deviceID: deviceID, includingDeviceKeys: firstTime)
        guard body.object?.isEmpty == false else { return nil }
        // The private halves are on disk before their public halves leave.
        try store.put(changed, id: "account", in: Self.accounts)
        account = changed
        let answer = try client.request("POST", ["keys", "upload"], body: body)
        account.markKeysAsPublished()
        try store.write { batch in
            try batch.put(account, id: "account", in: Self.accounts)
            try batch.put(true, id: "device-keys-uploaded", in: Self.deviceFlags)
        }
        return answer["one_time_key_counts"]?["signed_curve25519"]?.int
    }

    /// Before our first upload: the server must hold no keys for this device id, or the same
    /// ones (a crash after the upload, before it was recorded). Other keys mean another
    /// identity was published under this id, which peers would keep using.
    private func checkServerHasNoOtherIdentity(client: MatrixClient) throws {
        let answer = try client.queryKeys(users: [userID])
        guard let published = answer["device_keys"]?[userID]?[deviceID]?["keys"]?["ed25519:\(deviceID)"]?.string else { return }
        guard published == fingerprint else {
            throw IdentityLost(reason: "the server holds other keys for device \(deviceID)")
        }
    }
}
