import Foundation
import MatrixCrypto

// The child of StoreKillTests.testAcknowledgedWritesSurviveSIGKILLAtAnyMoment: writes to the crypto
// store in `<root>` from write number `<start>` on, prints "ack N" once write N has returned, compacts
// after every 5th write, and goes on until it is killed. A separate executable (not a test run as a
// child) so that a plain test run has nothing to skip.

/// A session-like record, encoded exactly as the tests' `StoredSession` (StoreTestSupport.swift), whose
/// `numbered` the kill test compares against: a difference fails that test, it cannot pass unnoticed.
struct StoredSession: Codable {
    var pickle: String
    var index: Int

    static func numbered(_ index: Int) -> StoredSession {
        StoredSession(pickle: String(repeating: String(index, radix: 36), count: 300).prefix(300).description, index: index)
    }
}

/// Sessions are spread over this many ids (StoreKillTests.ids), so a stale copy of any one shows.
let ids = 7
let sessions = CryptoStoreCollection<StoredSession>("test.sessions")
let counters = CryptoStoreCollection<Int>("test.counters")

let arguments = CommandLine.arguments
guard arguments.count == 3, let start = Int(arguments[2]), start > 0 else {
    FileHandle.standardError.write(Data("usage: crypto-store-writer <test folder> <first write number>\n".utf8))
    exit(2)
}
let root = arguments[1]
let location = CryptoStoreLocation(parent: root + "/data/crypto", keyFolder: root + "/config", userID: "@ann:example.org", deviceID: "DEVICE")
do {
    let store = try CryptoStore.open(at: location)
    var index = start
    while true {
        try store.write { batch in
            try batch.put(.numbered(index), id: "s\(index % ids)", in: sessions)
            try batch.put(index, id: "sent", in: counters)
        }
        // FileHandle writes straight to the descriptor (no buffer), so an acknowledgement printed is one the parent can read.
        FileHandle.standardOutput.write(Data("ack \(index)\n".utf8))
        if index % 5 == 0 { try store.compact() }
        index += 1
    }
} catch {
    FileHandle.standardError.write(Data("crypto-store-writer: \(error)\n".utf8))
    exit(1)
}
