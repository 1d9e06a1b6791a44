import ThreadModel

/// Which users' device lists we follow and which need asking for again (spec, "Tracking the
/// device list for a user"): pure, fed the members of encrypted rooms, sync's `device_lists`,
/// and `/keys/query` answers; it says whom to ask about and keeps the devices that checked.
///
/// A user marked changed while a query about them is in flight stays outdated when that
/// answer lands: the answer may predate the change.
public struct DeviceListTracker: Sendable, Codable {
    /// A device the answer listed but that was not taken, and why (shown in the log by id only).
    public struct RefusedDevice: Sendable, Equatable {
        public let userID: String
        public let deviceID: String
        public let reason: String
    }

    /// The devices of each followed user whose list has been read, by device id.
    public private(set) var devices: [String: [String: DeviceKeys]] = [:]
    /// The users followed: members of encrypted rooms we are in.
    public private(set) var tracked: Set<String> = []
    /// The followed users whose list must be asked for.
    public private(set) var outdated: Set<String> = []
    /// Users marked changed since their query was handed out (their answer is stale).
    private var changedInFlight: Set<String> = []
    private var inFlight: Set<String> = []

    public init() {}

    // What is in flight is not stored: after a restart nothing is, and those users are still outdated.
    private enum CodingKeys: String, CodingKey { case devices, tracked, outdated }

    /// Starts following `users` (new members of an encrypted room); new ones need a query.
    public mutating func track(_ users: some Sequence<String>) {
        for user in users where tracked.insert(user).inserted { outdated.insert(user) }
    }

    /// Sync's `device_lists`: `changed` users need asking again, `left` ones (no room shared
    /// any more) are no longer followed and their devices forgotten.
    public mutating func applySync(changed: some Sequence<String>, left: some Sequence<String>) {
        for user in changed where tracked.contains(user) {
            outdated.insert(user)
            if inFlight.contains(user) { changedInFlight.insert(user) }
        }
        for user in left {
            tracked.remove(user)
            outdated.remove(user)
            devices[user] = nil
        }
    }

    /// The next users to ask about (at most `limit`, sorted for a stable order), marked in flight.
    public mutating func nextQuery(limit: Int = 250) -> [String] {
        let batch = outdated.subtracting(inFlight).sorted().prefix(limit)
        inFlight.formUnion(batch)
        return Array(batch)
    }

    /// A query that failed: its users are asked about again later.
    public mutating func queryFailed(_ users: [String]) {
        for user in users { inFlight.remove(user); changedInFlight.remove(user) }
    }

    /// A `/keys/query` answer for `users`: each one's devices replace what was known, except a
    /// known device whose Ed25519 key changed (the spec says ignore it) and any that do not check.
    @discardableResult
    public mutating func queryAnswered(_ users: [String], answer: JSONValue) -> [RefusedDevice] {
        var refused: [RefusedDevice] = []
        for user in users {
            // The change noted during this query ends with it, however the answer reads.
            inFlight.remove(user)
            let changedMeanwhile = changedInFlight.remove(user) != nil
            guard tracked.contains(user) else { continue }
            let listed = answer["device_keys"]?[user]?.object
            if let listed {
                var read: [String: DeviceKeys] = [:]
                for (deviceID, object) in listed {
                    do {
                        let keys = try DeviceKeys(object, userID: user, deviceID: deviceID)
                        if let known = devices[user]?[deviceID], known.ed25519 != keys.ed25519 {
                            refused.append(RefusedDevice(userID: user, deviceID: deviceID, reason: "its Ed25519 key changed"))
                            read[deviceID] = known
                        } else {
                            read[deviceID] = keys
                        }
                    } catch let refusal as DeviceKeys.Refusal {
                        refused.append(RefusedDevice(userID: user, deviceID: deviceID, reason: refusal.reason))
                    } catch {
                        refused.append(RefusedDevice(userID: user, deviceID: deviceID, reason: "unreadable"))
                    }
                }
                devices[user] = read
            }
            // A user the server did not answer for (a federation failure) stays outdated.
            if listed != nil, !changedMeanwhile { outdated.remove(user) }
        }
        return refused
    }

    /// Checks the bookkeeping: nothing outdated or known that is not followed.
    public func _checkInvariants() {
        precondition(outdated.isSubset(of: tracked), "an outdated user is not followed")
        precondition(Set(devices.keys).isSubset(of: tracked), "devices kept for a user not followed")
        precondition(changedInFlight.isSubset(of: inFlight), "a change noted for a query not in flight")
    }
}
