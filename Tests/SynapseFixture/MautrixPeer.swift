import Foundation

/// The strict, Element-like peer: mautrix-python (PyPI, `PythonVenv.mautrix`) logged in as a user
/// of the test's Synapse on a device of its own. It can set up the account's secret storage and
/// cross-signing as Element does ("set up recovery"), and tell whether a device is cross-signed
/// as a client that withholds room keys from devices that are not would see it.
///
/// Each `run` is one Python process: it logs in (a new device), carries out the steps in order
/// and prints their results as JSON. Loopback only; a step that fails says why.
public struct MautrixPeer: Sendable {
    public let homeserver: URL
    public let userID: String
    public let password: String

    public init(homeserver: URL, userID: String, password: String) {
        self.homeserver = homeserver
        self.userID = userID
        self.password = password
    }

    /// One thing for the peer to do.
    public enum Step: Sendable {
        /// Uploads the peer's device and one-time keys; its result holds `device_id` and `ed25519`.
        case shareKeys
        /// Sets up secret storage (a new default key, from `passphrase` when given) holding new
        /// cross-signing keys, publishes them and signs the peer's device (mautrix's
        /// `generate_recovery_key`); its result holds `recovery_key`, as Element shows it.
        case generateRecoveryKey(passphrase: String?)
        /// Queries `user`'s keys afresh and says how mautrix trusts their device `device`: its
        /// result holds `trust` (`unverified`, `cross-signed-tofu`, … or `unknown-device`).
        case deviceTrust(user: String, device: String)
        /// Uploads the peer's device keys and verifies its device with the account's recovery
        /// key (it is then a device its user's identity signed); its result holds `device_id`.
        case verifyWithRecoveryKey(String)
        /// From now on room keys go only to devices their owner cross-signed, as Element sends
        /// them (spec v1.18); others are told `m.unverified`.
        case strict
        /// Syncs once from the start, so the peer knows its rooms, their members and devices.
        case sync
        /// Sends a text message (encrypted in an encrypted room); its result holds `event_id`.
        case sendText(room: String, body: String)
        /// Goes on syncing, answering what comes (key requests from its user's verified devices),
        /// for at most `seconds` or until a file exists at `until`.
        case serve(seconds: Int, until: String)
    }

    /// Carries out `steps` in one login; returns each step's result.
    public func run(_ steps: [Step]) throws -> [[String: Any]] {
        let python = try PythonVenv.mautrix.provision()
        let encoded: [[String: Any]] = steps.map { step in
            switch step {
            case .shareKeys: ["do": "share_keys"]
            case .generateRecoveryKey(let passphrase): ["do": "generate_recovery_key", "passphrase": passphrase ?? NSNull()]
            case .deviceTrust(let user, let device): ["do": "device_trust", "user": user, "device": device]
            case .verifyWithRecoveryKey(let key): ["do": "verify_with_recovery_key", "key": key]
            case .strict: ["do": "strict"]
            case .sync: ["do": "sync"]
            case .sendText(let room, let body): ["do": "send_text", "room": room, "body": body]
            case .serve(let seconds, let until): ["do": "serve", "seconds": seconds, "until": until]
            }
        }
        let request: [String: Any] = ["homeserver": homeserver.absoluteString, "user": userID, "password": password, "steps": encoded]
        return try PythonPeerRun(name: "mautrix peer", python: python, script: Self.script).results(for: request)
    }

    /// Shares the peer's device keys and sets up recovery (secret storage and cross-signing) for
    /// the user; returns the recovery key and the peer's device id.
    public func setUpRecovery(passphrase: String? = nil) throws -> (recoveryKey: String, deviceID: String) {
        let results = try run([.shareKeys, .generateRecoveryKey(passphrase: passphrase)])
        guard let deviceID = results.first?["device_id"] as? String, let key = results.last?["recovery_key"] as? String else {
            throw SynapseFixtureError("mautrix peer: no recovery key")
        }
        return (key, deviceID)
    }

    /// How mautrix, logged in as this peer's user, trusts `user`'s device `device`.
    public func trust(ofDevice device: String, of user: String) throws -> String {
        guard let trust = try run([.deviceTrust(user: user, device: device)]).first?["trust"] as? String else {
            throw SynapseFixtureError("mautrix peer: no trust state")
        }
        return trust
    }
}

