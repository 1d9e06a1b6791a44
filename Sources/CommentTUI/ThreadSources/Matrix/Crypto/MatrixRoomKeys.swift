import Foundation
import MatrixCrypto
import ThreadModel

/// The account's side of reading encrypted rooms: from each sync answer, on the sync's thread,
/// it keeps our keys on the server topped up, follows the device lists, opens the Olm
/// to-device messages sent to us and keeps the room keys (`m.room_key`) and the reasons keys
/// were withheld (`m.room_key.withheld`) they carry. Rooms then decrypt their events with it
/// (`MatrixRoomKeys+Megolm`).
///
/// Thread-safe: the sync's thread feeds it, each room's thread decrypts with it; one lock
/// around the store, whose writes are fsynced.
final class MatrixRoomKeys: @unchecked Sendable {
    let device: MatrixDeviceCrypto
    /// A session of its own (uploads, queries), so a room's `stop()` cancels none of them.
    let client: MatrixClient
    let lock = NSLock()
    /// One encrypted send at a time: the keys' `lock` is let go during its requests.
    let sending = NSLock()
    var tracker: DeviceListTracker
    /// Holds the store's lock file's exclusive lock while these keys are in use (closed at deinit).
    private let storeLock: FileDescriptor
    /// The replay check of the Megolm messages decrypted in this run, by session and index.
    var replayGuard = MegolmReplayGuard()
    /// The rooms whose keys arrived, newest last, for rooms to re-decrypt what waited
    /// (`keyArrivals`): a count that only grows.
    var arrivals = 0
    /// The users whose cross-signing identity changed since it was pinned, and how often that
    /// set changed in this run (`+Identities`); under a lock of its own.
    let identities: IdentityChanges
    /// Whether each user whose identity was read is verified (`+SenderTrust`); under its own lock.
    let verifiedSenders = VerifiedSenders()
    /// The account's key backup as this run found it, and what it restored and uploaded (`+Backup`).
    let backup = KeyBackupState()
    /// Keys rooms could not find, and those asked of our other devices in this run (`+KeyRequests`).
    var wanted: Set<WantedKey> = []
    var requested: [WantedKey: (count: Int, at: Date)] = [:]
    /// Sessions held from a later index than rows of theirs need: the backup is asked for their
    /// earlier part (`+Backup`); apart from `wanted`, which a key held leaves.
    var wantedEarlier: Set<WantedKey> = []
    /// Secrets asked of our other devices in this run, and requests answered that our other
    /// devices are to be told to drop (`+SecretSharing`).
    var secretRequests: [SharedSecret.Name: SecretRequest] = [:]
    var secretCancellations: [String] = []
    /// How often, and when last, the server was asked whether another of our devices signed this
    /// one after an emoji verification (`+SecretSharing`).
    var ownSignatureChecks: (count: Int, at: Date)?
    /// The fingerprints of the Olm messages opened last, as stored (`+Olm`).
    var openedRecently: [String] = []
    /// The time now, for the rules that limit new Olm sessions to a broken device and repeated
    /// key requests (tests inject it).
    var clock: @Sendable () -> Date = { Date() }
    /// The interactive verifications of this device (`MatrixVerifications`), and the
    /// verification messages a sync brought, taken outside the lock.
    let verifications = MatrixVerifications()
    var verificationInbox: [JSONValue] = []
    /// The secret-sharing messages a sync brought, taken outside the lock (`+SecretInbox`).
    var secretInbox = SecretInbox()

    /// Olm sessions by the other device's Curve25519 key, newest first.
    static let olmSessions = CryptoStoreCollection<[OlmSession]>("olm-sessions")
    /// Megolm inbound sessions by room and session id (`CryptoStoreCollection.id`), with the
    /// Curve25519 key of the device that shared them.
    static let megolmSessions = CryptoStoreCollection<StoredRoomKey>("megolm-inbound")
    /// Why a key was withheld, by room and session id.
    static let withheldKeys = CryptoStoreCollection<WithheldCode>("megolm-withheld")
    /// The device lists we follow (id `tracker`).
    static let deviceLists = CryptoStoreCollection<DeviceListTracker>("device-lists")

    /// A room key as kept: the session and the device that shared it.
    struct StoredRoomKey: Codable {
        var session: MegolmInboundSession
        /// The sharing device's Curve25519 key (unpadded base64): an event must name the same.
        var senderKey: String
        /// The sharing device's Ed25519 key as its Olm message claimed it (what key files list);
        /// nil when not known (kept before it was recorded).
        var claimedSigningKey: String? = nil
        /// Where the key came from when not straight from its sender (`m.room_key`): its
        /// authenticity is weaker (nil: from its sender, or a store written before this was kept).
        var origin: RoomKeyOrigin? = nil
    }

    /// The keys of the device `userID`/`deviceID` in the store at `location` (made on first
    /// use). Throws when the store is refused or busy (another comment-tui has it open).
    init(client: MatrixClient, userID: String, deviceID: String, location: CryptoStoreLocation,
         random: any RandomSource = SystemRandom()) throws {
        // Two processes writing one store would each append to a journal the other does not know.
        guard let lock = try PrivateDirectory(location.parent).holdLock(location.name + ".lock") else { throw CryptoStoreRefusal.busy }
        storeLock = lock
        self.client = client.separateSession()
        device = try MatrixDeviceCrypto(userID: userID, deviceID: deviceID, location: location, random: random)
        tracker = (try? device.store.value("tracker", in: Self.deviceLists)) ?? DeviceListTracker()
        identities = IdentityChanges(users: (try? device.store.value("changed", in: Self.changedIdentities)) ?? [])
        openedRecently = (try? device.store.value("recent", in: Self.openedOlmMessages)) ?? []
        verifications.keys = self
    }

    /// The account's keys from its store where the environment puts it; nil (told why through
    /// `complain`, never with a secret) when the store is not opened: encrypted rooms then stay unread.
    /// Within one process the keys of a store are shared: whoever opened them first (a room, a
    /// verb, the account's link) serves later openers while it lives, since the store's lock is
    /// per opening and a second opening in the same process would be refused as busy.
    static func open(client: MatrixClient, account: MatrixAccounts.Account, environment: [String: String],
                     complain: (String) -> Void) -> MatrixRoomKeys? {
        guard let location = CryptoStoreLocation(userID: account.userID, deviceID: account.deviceID, environment: environment) else { return nil }
        do {
            return try openInProcess.keys(at: location.path) {
                let keys = try MatrixRoomKeys(client: client, userID: account.userID, deviceID: account.deviceID, location: location)
                if let loss = keys.device.store.loss { complain("\(loss)") }
                return keys
            }
        } catch {
            complain("encrypted rooms cannot be read: \(error)")
            return nil
        }
    }

    deinit { storeLock.close() }

    /// The keys open in this process, by store path, held weakly (they close when their last user lets go).
    private static let openInProcess = OpenKeys()

    /// A lock-guarded table of weak references.
    /// `@unchecked Sendable`: `table` is only touched under `lock`.
    private final class OpenKeys: @unchecked Sendable {
        private struct Weak { weak var keys: MatrixRoomKeys? }
        private let lock = NSLock()
        private var table: [String: Weak] = [:]

        /// The keys open at `path`, else those `make` opens (kept for later callers).
        func keys(at path: String, make: () throws -> MatrixRoomKeys) throws -> MatrixRoomKeys {
            try lock.withLock {
                if let open = table[path]?.keys { return open }
                let made = try make()
                table = table.filter { $0.value.keys != nil }
                table[path] = Weak(keys: made)
                return made
            }
        }
    }

    /// Takes a sync answer's encryption parts: our key counts, the device lists, and the
    /// to-device events. Failures are kept from the sync (a room key that did not read stays
    /// missing, and its messages say they wait for it); they return as words for the log.
    @discardableResult
    func take(_ answer: JSONValue) -> [String] {
        var problems = lock.withLock { takeLocked(answer) }
        // Outside the lock too: secrets are checked, and requests answered, with requests.
        takeSecretMessages(problems: &problems)
        // Outside the lock: one request per key asked for, which rooms must not wait on.
        requestWantedKeys(problems: &problems)
        // Also outside: verifications query keys and send their answers.
        verifications.take(lock.withLock { defer { verificationInbox = [] }; return verificationInbox })
        // Then requests in rooms, open here or not (`MatrixVerifications+Sync`).
        verifications.noteSyncedRooms(answer, keys: self)
        // After them: a verification that just ended may let this device ask for secrets.
        requestMissingSecrets(problems: &problems)
        return problems
    }

    /// `take` but the key requests. Call locked.
    private func takeLocked(_ answer: JSONValue) -> [String] {
        var problems: [String] = []
        // A count object without our algorithm says none are left (Synapse leaves zeros out).
        let counts = answer["device_one_time_keys_count"].map { $0["signed_curve25519"]?.int ?? 0 }
        let fallback = answer["device_unused_fallback_key_types"]?.array?.compactMap(\.string)
        do {
            if !device.deviceKeysUploaded {
                try device.uploadKeys(client: client)
            } else if counts != nil || fallback != nil {
                let plan = KeyReplenishment(serverCount: counts, unusedFallbackTypes: fallback)
                if plan.oneTimeKeys > 0 || plan.fallbackKey { try device.uploadKeys(client: client, replenishment: plan) }
            }
        } catch {
            problems.append("our keys were not uploaded: \(error)")
        }
        followDeviceLists(answer["device_lists"], problems: &problems)
        for event in answer["to_device"]?["events"]?.array ?? [] {
            do {
                try takeToDevice(event)
            } catch is AlreadyOpened {
                continue
            } catch {
                problems.append("\(error)")
            }
        }
        return problems
    }

    /// Sync's `device_lists` applied and the outdated users asked about (`/keys/query`). Call locked.
    func followDeviceLists(_ lists: JSONValue?, problems: inout [String]) {
        let changed = lists?["changed"]?.array?.compactMap(\.string) ?? []
        let left = lists?["left"]?.array?.compactMap(\.string) ?? []
        tracker.track(membersToFollow())
        tracker.applySync(changed: changed, left: left)
        let users = tracker.nextQuery()
        if !users.isEmpty {
            do {
                let answer = try client.queryKeys(users: users)
                _ = tracker.queryAnswered(users, answer: answer)
                noteIdentities(of: users, in: answer)
                noteTrust(of: users, in: answer)
            } catch {
                tracker.queryFailed(users)
                problems.append("the devices of \(users.count) users were not read: \(error)")
            }
        }
        if !changed.isEmpty || !left.isEmpty || !users.isEmpty { try? device.store.put(tracker, id: "tracker", in: Self.deviceLists) }
    }

    /// The devices of `user` whose keys checked (call locked). A user not followed yet (the
    /// first to-device message from them) is followed from now on and asked about at once.
    func trackedDevices(of user: String) -> [DeviceKeys] {
        if !tracker.tracked.contains(user) {
            tracker.track([user])
            var problems: [String] = []
            followDeviceLists(nil, problems: &problems)
        }
        return tracker.devices[user].map { Array($0.values) } ?? []
    }

    /// Starts following `users` (the members of an encrypted room), their devices asked about
    /// with the next sync.
    func follow(_ users: some Sequence<String>) {
        lock.withLock { tracker.track(users) }
    }

    /// One to-device event: an Olm message opened and what it carries taken, kept with the Olm
    /// state opening it left in one write; a withheld notice kept.
    private func takeToDevice(_ event: JSONValue) throws {
        guard let type = event["type"]?.string, let sender = event["sender"]?.string else { return }
        switch type {
        case "m.room.encrypted":
            let opened = try openOlm(event, sender: sender)
            switch opened.payload.type {
            case "m.room_key": try takeRoomKey(opened)
            case "m.room_key.withheld":
                try keep(opened)
                takeWithheld(opened.payload.content)
            case "m.forwarded_room_key":
                try keep(opened)
                try takeForwardedKey(opened.payload, sender: sender, forwarderKey: opened.senderKey)
            case "m.secret.send":
                try keep(opened)
                secretInbox.add(.secret(opened.payload, sender: sender, senderKey: opened.senderKey))
            case "m.secret.request":
                try keep(opened)
                secretInbox.add(.request(opened.payload.content, sender: sender))
            case let verification where VerificationMessage.isVerificationType(verification):
                try keep(opened)
                // The Olm session says which device sent it: only theirs may speak for their verification.
                var taken: [String: JSONValue] = ["sender": .string(sender), "type": .string(verification), "content": opened.payload.content]
                if let from = knownDevice(of: sender, curve25519: opened.senderKey)?.deviceID { taken["sender_device"] = .string(from) }
                verificationInbox.append(.object(taken))
            default: try keep(opened)
            }
        case "m.room_key.withheld":
            takeWithheld(event["content"])
        case "m.secret.request":
            secretInbox.add(.request(event["content"], sender: sender))
        case let verification where VerificationMessage.isVerificationType(verification):
            verificationInbox.append(["sender": .string(sender), "type": .string(verification), "content": event["content"] ?? [:]])
        default:
            break
        }
    }

    /// The room key an Olm message carried, kept unless we hold a copy from as early an index;
    /// the message's Olm state kept either way, in the same write as the key.
    private func takeRoomKey(_ opened: OpenedOlmMessage) throws {
        let payload = opened.payload, senderKey = opened.senderKey
        var refusal: Error?
        var carried: (id: String, key: StoredRoomKey)?
        do {
            let key = try RoomKeyContent(type: payload.type, content: payload.content)
            let session = try MegolmInboundSession(sessionKey: key.sessionKey)
            guard session.sessionID == key.sessionID else { throw RoomKeyRefusal(reason: "its session id is not its key's") }
            let id = CryptoStoreCollection<StoredRoomKey>.id(key.roomID, key.sessionID)
            let kept = try device.store.value(id, in: Self.megolmSessions)
            if kept.map({ $0.senderKey == senderKey && $0.session.compare(session) == .better }) ?? true {
                carried = (id, StoredRoomKey(session: session, senderKey: senderKey, claimedSigningKey: payload.senderEd25519))
            }
        } catch {
            refusal = error
        }
        try keep(opened) { batch in
            guard let carried else { return }
            try batch.put(carried.key, id: carried.id, in: Self.megolmSessions)
            batch.remove(id: carried.id, from: Self.withheldKeys)
        }
        if let refusal { throw refusal }
        if carried != nil { arrivals += 1 }
    }

    /// A withheld notice for one of a room's sessions, kept so its messages say why.
    private func takeWithheld(_ content: JSONValue?) {
        guard let content, let notice = WithheldNotice(content: content), let room = notice.roomID, let session = notice.sessionID else { return }
        let id = CryptoStoreCollection<WithheldCode>.id(room, session)
        guard (try? device.store.value(id, in: Self.megolmSessions)) == nil else { return }
        try? device.store.put(notice.code, id: id, in: Self.withheldKeys)
        arrivals += 1
    }
}
