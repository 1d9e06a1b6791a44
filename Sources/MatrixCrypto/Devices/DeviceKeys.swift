import ThreadModel

/// One device's published keys as `/keys/query` returns them, read and checked the way the
/// spec's "Tracking the device list for a user" asks: the user and device ids inside must be
/// the ones it is filed under, and the object must carry a valid signature by its own Ed25519
/// key. Anything else is refused with a reason, never used.
public struct DeviceKeys: Sendable, Equatable, Codable {
    /// Why a device's keys were not taken.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "device keys refused: \(reason)" }
    }

    public let userID: String
    public let deviceID: String
    /// The Curve25519 identity key (unpadded base64): Olm sessions are with this key.
    public let curve25519: String
    /// The Ed25519 fingerprint key (unpadded base64): what signs the device and what people verify.
    public let ed25519: String
    /// The algorithms the device says it supports.
    public let algorithms: [String]
    /// The name its owner gave it, if any (shown escaped; hostile like every other name).
    public let displayName: String?
    /// The object as received, kept whole: cross-signing signatures are checked against it.
    public let signedObject: JSONValue

    /// Reads `object`, filed under `userID` and `deviceID` in the answer.
    public init(_ object: JSONValue, userID: String, deviceID: String) throws {
        guard object.object != nil else { throw Refusal(reason: "not an object") }
        guard object["user_id"]?.string == userID else { throw Refusal(reason: "its user id is not the one it is listed under") }
        guard object["device_id"]?.string == deviceID else { throw Refusal(reason: "its device id is not the one it is listed under") }
        guard let curve = object["keys"]?["curve25519:\(deviceID)"]?.string, UnpaddedBase64.decode(curve)?.count == 32 else {
            throw Refusal(reason: "no Curve25519 key")
        }
        guard let ed = object["keys"]?["ed25519:\(deviceID)"]?.string, let edKey = UnpaddedBase64.decode(ed), edKey.count == 32 else {
            throw Refusal(reason: "no Ed25519 key")
        }
        guard JSONSigning.verify(object, userID: userID, keyID: deviceID, publicKey: edKey) else {
            throw Refusal(reason: "its signature by its own key does not check")
        }
        self.userID = userID
        self.deviceID = deviceID
        curve25519 = curve
        ed25519 = ed
        algorithms = object["algorithms"]?.array?.compactMap(\.string) ?? []
        displayName = object["unsigned"]?["device_display_name"]?.string
        signedObject = object
    }
}
