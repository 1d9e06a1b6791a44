import Foundation
import MatrixCrypto
import ThreadModel
@testable import CommentTUI

// The child of MatrixEncryptedSendKillTests: Ann's client for an encrypted room, as the app
// runs it (the account's keys in the crypto store, the room's source with its outbox), which
// the test SIGKILLs at varied moments. A separate executable (not a test run as a child) so
// that a plain test run has nothing to skip.
//
// Reads one JSON request on stdin (homeserver, token, user, device, room, folder, first, count,
// exit), opens the keys and the room from `folder` (the outbox resends what an earlier run left),
// queues the comments `first ..< first + count` (transaction id `kill-<n>`, body `comment <n>`)
// and prints, unbuffered, one line per fact: `opened {"read": [ids], "waiting": [ids], "bodies":
// {id: body}}`, `resending <transaction ids>` (what the outbox sends again), `queued <n>`, `sent <transaction id>`, `refused <transaction id> <why>`,
// and `idle` once every comment it sends is in the room; then it waits to be killed (or exits 0
// when `exit` is true).

/// Prints one line straight to the descriptor: a line printed is one the parent can read.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func fail(_ why: String) -> Never {
    FileHandle.standardError.write(Data("encrypted-room-sender: \(why)\n".utf8))
    exit(1)
}

let request = JSONValue(foundation: (try? JSONSerialization.jsonObject(with: FileHandle.standardInput.readDataToEndOfFile())) ?? [:])
guard let homeserver = request["homeserver"]?.string.flatMap(URL.init(string:)), let token = request["token"]?.string,
      let user = request["user"]?.string, let device = request["device"]?.string, let room = request["room"]?.string,
      let folder = request["folder"]?.string, let first = request["first"]?.int, let count = request["count"]?.int else {
    fail("usage: a JSON request on stdin (homeserver, token, user, device, room, folder, first, count, exit)")
}
let environment = ["XDG_DATA_HOME": folder + "/data", "XDG_CONFIG_HOME": folder + "/config", "XDG_CACHE_HOME": folder + "/cache"]
let client = MatrixClient(homeserver: homeserver, accessToken: token)
guard let location = CryptoStoreLocation(userID: user, deviceID: device, environment: environment) else { fail("no store location") }
let source: MatrixThreadSource
do {
    let keys = try MatrixRoomKeys(client: client, userID: user, deviceID: device, location: location)
    if let loss = keys.device.store.loss { fail("the store was set aside: \(loss)") }
    for problem in keys.take(["to_device": ["events": []]]) { fail(problem) }
    let sync = MatrixAccountSync(client: client)
    sync.roomKeys = keys
    guard let address = MatrixRoomAddress(locator: "matrix:\(room)") else { fail("no address") }
    source = try MatrixThreadSource(client: client, address: address, me: user, environment: environment, usesCache: false, accountSync: sync)
} catch {
    fail("\(error)")
}

let rows = (source.openedComments as! ArrayCommentStore).comments.filter { !$0.body.hasPrefix("🔒 *switched on") }
let opened: [String: Any] = [
    "read": rows.filter { !source.isPlaceholder($0.id) }.map(\.id),
    "waiting": rows.filter { source.isPlaceholder($0.id) }.map(\.id),
    "bodies": Dictionary(rows.map { ($0.id, $0.body) }, uniquingKeysWith: { first, _ in first }),
]
guard let openedJSON = try? JSONSerialization.data(withJSONObject: opened) else { fail("the opening does not encode") }
say("opened " + String(decoding: openedJSON, as: UTF8.self))

// What the outbox resends (not refused) and what this run queues: each must reach the room.
var waiting = Set(source.unsentComments.filter { source.notSentReasons[$0.id] == nil }.map(\.id))
let resent = waiting
say((["resending"] + resent.sorted()).joined(separator: " "))
for number in first ..< first + count {
    let id = "kill-\(number)"
    // Still in the outbox from a run killed before it said so: it is on its way already.
    if !resent.contains(id) {
        guard source.send(Comment(id: id, author: user, created: Date(), body: "comment \(number)")) == .pending else {
            fail("comment \(number) was not taken")
        }
    }
    waiting.insert(id)
    say("queued \(number)")
}
var saidIdle = false
while true {
    if waiting.isEmpty, !saidIdle {
        say("idle")
        saidIdle = true
        if request["exit"]?.bool == true {
            source.stop()
            exit(0)
        }
    }
    if let ready = source.updatesReady { _ = try? Poll.readable([ready], timeout: 1) }
    for update in source.takeUpdates() {
        switch update {
        case .sendConfirmed(let id):
            waiting.remove(id)
            say("sent \(id)")
        case .sendFailed(let id, let reason):
            say("refused \(id) \(reason.message)")
        default:
            break
        }
    }
}
