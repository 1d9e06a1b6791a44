import Foundation
import ThreadModel

/// The end-to-end encryption endpoints (Client-Server API, "End-to-end encryption"): our
/// device's keys up, others' devices and one-time keys down, and to-device messages. Blocking,
/// off the UI thread, like the rest of `MatrixClient`; what they carry is built and checked in
/// MatrixCrypto.
extension MatrixClient {
    /// Uploads our device keys (once), one-time keys and fallback keys (`POST /keys/upload`);
    /// returns how many one-time keys of each algorithm the server now holds for us.
    public func uploadKeys(deviceKeys: JSONValue?, oneTimeKeys: [String: JSONValue] = [:],
                           fallbackKeys: [String: JSONValue] = [:]) throws -> [String: Int] {
        var body: [String: JSONValue] = [:]
        if let deviceKeys { body["device_keys"] = deviceKeys }
        if !oneTimeKeys.isEmpty { body["one_time_keys"] = .object(oneTimeKeys) }
        if !fallbackKeys.isEmpty { body["fallback_keys"] = .object(fallbackKeys) }
        let answer = try request("POST", ["keys", "upload"], body: .object(body))
        return (answer["one_time_key_counts"]?.object ?? [:]).compactMapValues(\.int)
    }

    /// The devices of `users` (`POST /keys/query`): their device keys and cross-signing keys,
    /// and `failures` for servers that did not answer. Read with `DeviceListTracker`.
    public func queryKeys(users: [String], timeout: TimeInterval = 10) throws -> JSONValue {
        let wanted = Dictionary(users.map { ($0, JSONValue.array([])) }, uniquingKeysWith: { first, _ in first })
        return try request("POST", ["keys", "query"], body: ["device_keys": .object(wanted), "timeout": .number(timeout * 1000)],
                           timeout: timeout + 10, limit: MatrixAnswerLimit.large)
    }

    /// Claims one one-time key (or the fallback key) of `algorithm` per device
    /// (`POST /keys/claim`); the answer's `one_time_keys` by user, then device.
    public func claimKeys(_ devices: [String: [String]], algorithm: String = "signed_curve25519",
                          timeout: TimeInterval = 10) throws -> JSONValue {
        let wanted = devices.mapValues { ids in JSONValue.object(Dictionary(ids.map { ($0, JSONValue.string(algorithm)) }, uniquingKeysWith: { first, _ in first })) }
        return try request("POST", ["keys", "claim"], body: ["one_time_keys": .object(wanted), "timeout": .number(timeout * 1000)],
                           timeout: timeout + 10)
    }

    /// Sends to-device messages of `type` (`PUT /sendToDevice/{type}/{txnId}`), by user then
    /// device; the transaction id makes a resend after a lost answer arrive once.
    public func sendToDevice(type: String, transactionID: String, messages: [String: [String: JSONValue]]) throws {
        try request("PUT", ["sendToDevice", type, transactionID], body: ["messages": .object(messages.mapValues { .object($0) })])
    }
}
