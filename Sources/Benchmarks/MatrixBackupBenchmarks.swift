import Foundation
import CommentTUI
import MatrixCrypto
import SynapseFixture
import ThreadModel

/// Key backup on a loopback Synapse: a room of 10,000 Megolm messages (100 sessions, as a room
/// rotating every 100 messages has) whose keys are in the account's backup; a fresh device of
/// the account, verified with the recovery key, restores the room's keys, and another opens the
/// room to its first screen cold (the keys restored lazily as it opens).
func matrixBackupBenchmarks() -> [BenchmarkRow] {
    do {
        return try MatrixBackupBenchmark().run()
    } catch {
        return [BenchmarkRow(area: "matrix-backup", name: "could not run", value: "\(error)")]
    }
}

private struct MatrixBackupBenchmark {
    /// 10,000 by default; `COMMENT_TUI_BENCH_MATRIX_MESSAGES` sets another size for a quick look.
    static let messages = ProcessInfo.processInfo.environment["COMMENT_TUI_BENCH_MATRIX_MESSAGES"].flatMap(Int.init) ?? 10_000
    static let rotation = 100
    static let lanes = 8

    let folder = NSTemporaryDirectory() + "comment-tui-bench-backup-\(UUID().uuidString)"

    func run() throws -> [BenchmarkRow] {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = SynapseServer()
        try server.start()
        defer { server.stop() }
        let ann = try server.register(localpart: "ann-\(UUID().uuidString.prefix(6).lowercased())")
        let encryption: [String: Any] = ["type": "m.room.encryption", "state_key": "", "content": ["algorithm": "m.megolm.v1.aes-sha2"]]
        let room = try server.client(for: ann).createRoom(name: "Ten thousand, backed up", preset: .privateChat, initialState: [encryption])
        let recoveryKey = try MautrixPeer(homeserver: server.baseURL, userID: ann.userID, password: ann.password).setUpRecovery().recoveryKey
        let client = MatrixClient(homeserver: server.baseURL, accessToken: ann.accessToken)
        let backupKey = try makeBackup(client: client, userID: ann.userID, recoveryKey: recoveryKey)
        let filled = benchNow()
        try fill(room: room, client: client, backupKey: backupKey)
        let fillSeconds = Double(benchNow() - filled) / 1e9
        Thread.sleep(forTimeInterval: 5)

        // Restoring the room's keys alone, on a fresh device verified with the recovery key.
        let restoring = try freshDevice(ann, server: server, name: "restorer", recoveryKey: recoveryKey)
        let restoreStart = benchNow()
        let problems = restoring.sync.restoreRoomKeysFromBackup(roomID: room)
        let restoreMilliseconds = Double(benchNow() - restoreStart) / 1e6
        guard problems.isEmpty else { throw BenchmarkFailure("the restore said: \(problems.joined(separator: "; "))") }

        // The first screen of the room on another fresh device, cold: its keys restored as it opens.
        let reader = try freshDevice(ann, server: server, name: "reader", recoveryKey: recoveryKey)
        guard let address = MatrixRoomAddress(locator: "matrix:\(room)") else { throw BenchmarkFailure("no address for \(room)") }
        let openStart = benchNow()
        let source = try MatrixThreadSource(client: reader.client, address: address, me: ann.userID,
                                            environment: environment("reader"), follows: false, usesCache: false, accountSync: reader.sync)
        defer { source.close() }
        let app = CommentApp(source: source, me: source.reader, columns: 100, rows: 30)
        let opened = Double(benchNow() - openStart) / 1e6
        var lines = screenLines(app)
        let deadline = Date().addingTimeInterval(120)
        while lines.contains(where: { $0.contains("unable to decrypt") }) || !lines.contains(where: { $0.contains("message ") }) {
            guard Date() < deadline else { throw BenchmarkFailure("the first screen did not decrypt: \(lines.joined(separator: " / "))") }
            if let ready = source.updatesReady { _ = try? Poll.readable([ready], timeout: 0.05) }
            app.receive(source.takeUpdates())
            lines = screenLines(app)
        }
        let decrypted = Double(benchNow() - openStart) / 1e6
        return [
            BenchmarkRow(area: "matrix-backup", name: "fill \(Self.messages) encrypted messages, their \(Self.messages / Self.rotation) sessions in the key backup (setup)",
                         value: String(format: "%.1f s", fillSeconds)),
            BenchmarkRow(area: "matrix-backup", name: "restore the keys of a \(Self.messages)-message room from the key backup (\(Self.messages / Self.rotation) sessions, fresh device)",
                         value: String(format: "%.0f ms", restoreMilliseconds)),
            BenchmarkRow(area: "matrix-backup", name: "open that room on a fresh device, cold, to the first screen decrypted (opened with rows waiting; keys restored as it opens)",
                         value: String(format: "%.0f ms (%.0f ms)", decrypted, opened)),
        ]
    }

    /// A new backup for the account (its master key from secret storage signs it), its key in
    /// secret storage, as Element's "Set up recovery" leaves it.
    private func makeBackup(client: MatrixClient, userID: String, recoveryKey: String) throws -> MegolmBackupKey {
        var accountData: [String: JSONValue] = [:]
        let pointerType = SecretStorageKeyDescription.defaultKeyEventType
        accountData[pointerType] = try client.accountData(pointerType, of: userID)
        let keyType = SecretStorageKeyDescription.eventType(keyID: try SecretStorageKeyDescription.defaultKeyID(from: accountData[pointerType] ?? [:]))
        accountData[keyType] = try client.accountData(keyType, of: userID)
        for name in [CrossSigningKeys.masterSecretName, CrossSigningKeys.selfSigningSecretName, CrossSigningKeys.userSigningSecretName] {
            accountData[name] = try client.accountData(name, of: userID)
        }
        let storage = try SecretStorageKey(recoveryKey: RecoveryKey(typed: recoveryKey), description: SecretStorageKeyDescription.defaultKey(in: accountData))
        let crossSigning = try CrossSigningKeys(userID: userID, secretStorage: storage, accountData: accountData)
        var random = SystemRandom()
        let key = try MegolmBackupKey.generate(random: &random)
        let device = try Ed25519KeyPair(random: &random)
        let authData = try MegolmBackupVersion.authData(key: key, userID: userID, master: crossSigning.master, deviceID: "BENCHWRITER",
                                                        deviceSign: device.sign)
        try client.putAccountData(MegolmBackupKey.secretName, of: userID,
                                  content: storage.encryptedEventContent(secret: key.secret, named: MegolmBackupKey.secretName, random: &random))
        _ = try client.createBackupVersion(algorithm: MegolmBackupKey.algorithm, authData: authData)
        return key
    }

    /// The room's messages, encrypted here with a session per `rotation` messages (a writer
    /// device's keys made up for it), sent by `lanes` threads at once; the sessions uploaded to
    /// the backup in one request.
    private func fill(room: String, client: MatrixClient, backupKey: MegolmBackupKey) throws {
        var random = SystemRandom()
        let writer = try Curve25519KeyPair(random: &random)
        let senderKey = UnpaddedBase64.encode(writer.publicKey)
        var contents: [JSONValue] = []
        var sessions: [String: JSONValue] = [:]
        var outbound = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0)
        for n in 0 ..< Self.messages {
            if n % Self.rotation == 0 {
                if n > 0 { outbound = try MegolmOutboundSession(random: &random, createdAtMilliseconds: 0) }
                let exported = try MegolmInboundSession(sessionKey: outbound.sessionKey()).export(at: 0)
                let sealed = try backupKey.encrypt(MegolmBackupSession(sessionKey: exported, senderKey: senderKey, senderClaimedEd25519: nil), random: &random)
                sessions[outbound.sessionID] = ["first_message_index": 0, "forwarded_count": 0, "is_verified": false, "session_data": sealed.json]
            }
            let plaintext = try CanonicalJSON.encode(["type": "m.room.message", "room_id": .string(room),
                                                      "content": ["msgtype": "m.text", "body": .string("message \(n + 1): filling the room with text of a typical length")]])
            let message = try outbound.encrypt(plaintext)
            contents.append(["algorithm": "m.megolm.v1.aes-sha2", "sender_key": .string(senderKey), "device_id": "BENCHWRITER",
                             "session_id": .string(outbound.sessionID), "ciphertext": .string(message.base64)])
        }
        try client.uploadRoomKeys([room: ["sessions": .object(sessions)]], version: try client.currentBackupVersion()?["version"]?.string ?? "")
        let failures = FailureTally()
        let done = DispatchGroup()
        let all = contents
        for lane in 0 ..< Self.lanes {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                for n in stride(from: lane, to: all.count, by: Self.lanes) {
                    do {
                        _ = try client.send(room: room, type: "m.room.encrypted", transactionID: "fill-\(n)", content: all[n])
                        if (n + 1) % 1000 == 0 { FileHandle.standardError.write(Data("matrix-backup: message \(n + 1) sent\n".utf8)) }
                    } catch {
                        failures.add()
                    }
                }
            }
        }
        done.wait()
        if failures.count > 0 { throw BenchmarkFailure("\(failures.count) sends failed while filling the room") }
    }

    private func environment(_ name: String) -> [String: String] {
        ["XDG_DATA_HOME": folder + "/\(name)/data", "XDG_CONFIG_HOME": folder + "/\(name)/config", "XDG_CACHE_HOME": folder + "/\(name)/cache"]
    }

    /// A fresh login of `account`, its keys opened in a store of its own and verified with the recovery key.
    private func freshDevice(_ account: MatrixTestAccount, server: SynapseServer, name: String, recoveryKey: String) throws
        -> (sync: MatrixAccountSync, client: MatrixClient) {
        let session = try MatrixClient(homeserver: server.baseURL).login(user: account.userID, password: account.password)
        let client = MatrixClient(homeserver: server.baseURL, accessToken: session.accessToken)
        let sync = MatrixAccountSync(client: client)
        var complaints: [String] = []
        guard sync.openRoomKeys(userID: account.userID, deviceID: session.deviceID, environment: environment(name), complain: { complaints.append($0) }) else {
            throw BenchmarkFailure("the keys of a fresh device did not open: \(complaints.joined(separator: "; "))")
        }
        try sync.verifyWithRecoveryKey(recoveryKey)
        return (sync, client)
    }

    /// The rows of the app's next frame, as text.
    private func screenLines(_ app: CommentApp) -> [String] {
        let buffer = app.render().buffer
        return (0..<buffer.rows).map(buffer.line)
    }
}

/// A count several threads add to. `@unchecked Sendable`: `value` only under `lock`.
private final class FailureTally: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
