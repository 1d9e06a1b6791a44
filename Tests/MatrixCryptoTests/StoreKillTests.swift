import Foundation
import Glibc
import ThreadModel
import XCTest
@testable import MatrixCrypto

/// A crash at any point never loses a write the store acknowledged: a child process (the
/// `crypto-store-writer` executable, Tests/CryptoStoreWriter) writes sessions, says "ack N" after each
/// write returns, and compacts after every 5th; it is killed with SIGKILL at a random moment, many
/// times, and after each kill the store opens, unset-aside, holding every acknowledged write.
final class StoreKillTests: XCTestCase {
    /// Sessions are spread over this many ids (as in the writer), so a stale copy of any one shows.
    static let ids = 7

    /// The writer, built beside this test binary (the test target depends on it).
    static var writerPath: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("crypto-store-writer").path
    }

    /// The state after writes 1…n: the counter at n, and each id's last session.
    static func expected(after n: Int) -> (counter: Int?, sessions: [String: StoredSession]) {
        var state: [String: StoredSession] = [:]
        for index in max(1, n - ids + 1) ... max(1, n) where n > 0 { state["s\(index % ids)"] = .numbered(index) }
        return (n > 0 ? n : nil, state)
    }

    func testAcknowledgedWritesSurviveSIGKILLAtAnyMoment() throws {
        // The test target depends on the writer, so a missing one means a broken build: fail, never skip.
        guard FileManager.default.isExecutableFile(atPath: Self.writerPath) else {
            return XCTFail("the writer is missing at \(Self.writerPath)")
        }
        let folder = try StoreTestFolder()
        defer { folder.remove() }
        let location = folder.location
        _ = try CryptoStore.open(at: location)
        var random = SeededRandom(seed: 2026)
        var written = 0
        // How the kills fell: a write on disk but not acknowledged, a compaction's temporary file
        // left, a journal the next start had to compact (cut short, or stale after a compaction).
        var landedUnacknowledged = 0, leftTemporary = 0, compactedOnOpen = 0
        func temporaries() -> Set<String> {
            Set(((try? FileManager.default.contentsOfDirectory(atPath: location.path)) ?? []).filter { $0.hasSuffix(".tmp") })
        }
        for round in 0 ..< 100 {
            let temporariesBefore = temporaries()
            let child = Process()
            child.executableURL = URL(fileURLWithPath: Self.writerPath)
            child.arguments = [folder.root, String(written + 1)]
            let output = Pipe(), errors = Pipe()
            child.standardOutput = output
            child.standardError = errors
            try child.run()
            // Wait for a random number of acknowledgements (none, sometimes), then a random moment more.
            let wanted = random.below(12)
            var acknowledged = written
            var pending = ""
            while acknowledged < written + wanted {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                pending += String(decoding: chunk, as: UTF8.self)
                while let end = pending.firstIndex(of: "\n") {
                    let line = pending[..<end]
                    if line.hasPrefix("ack "), let number = Int(line.dropFirst(4)) { acknowledged = number }
                    pending = String(pending[pending.index(after: end)...])
                }
            }
            usleep(UInt32(random.below(4000)))
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "round \(round): the child was killed, it did not stop on its own: \(complaint)")
            // Acknowledgements still in the pipe were made before the kill.
            pending += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            for line in pending.split(separator: "\n") where line.hasPrefix("ack ") { acknowledged = max(acknowledged, Int(line.dropFirst(4)) ?? 0) }
            if !temporaries().subtracting(temporariesBefore).isEmpty { leftTemporary += 1 }
            let snapshotBefore = folder.storeFile("snapshot")

            let store = try CryptoStore.open(at: location)
            XCTAssertNil(store.loss, "round \(round): \(store.loss.map(String.init(describing:)) ?? "")")
            let counter = try store.value("sent", in: counters) ?? 0
            // The write in flight at the kill may have reached the disk before its acknowledgement.
            XCTAssertTrue(counter == acknowledged || counter == acknowledged + 1, "round \(round): \(counter) read, \(acknowledged) acknowledged")
            XCTAssertEqual(try store.values(in: sessions), Self.expected(after: counter).sessions, "round \(round)")
            XCTAssertEqual(folder.storeFolders(), [location.name], "round \(round): nothing set aside")
            if counter > acknowledged { landedUnacknowledged += 1 }
            if folder.storeFile("snapshot") != snapshotBefore { compactedOnOpen += 1 }
            written = counter
        }
        XCTAssertGreaterThan(written, 100, "the children wrote")
        print("kill test: \(written) writes over 100 kills; \(landedUnacknowledged) with a write on disk but not acknowledged, "
              + "\(leftTemporary) that left a temporary file, \(compactedOnOpen) compacted on the next open")
    }
}
