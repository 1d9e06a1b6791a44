import Foundation
import MatrixCrypto
import ThreadModel

/// The crypto store with 1,000 Megolm-like sessions (a ~300-character pickle each, keyed by room,
/// sender key and session id): what it takes on disk, what one fsynced write costs (the wait
/// before a message is sent), opening it, compacting it, and, for the choice of a journal, what
/// replacing a sixteenth of it as one shard file would cost per write instead.
func cryptoStoreBenchmarks() -> [BenchmarkRow] {
    struct Pickled: Codable { var pickle: String }
    let root = NSTemporaryDirectory() + "crypto-store-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: root) }
    let location = CryptoStoreLocation(parent: root + "/data", keyFolder: root + "/config", userID: "@bench:example.org", deviceID: "BENCH")
    let inbound = CryptoStoreCollection<Pickled>("megolm.inbound")
    var seeded = SeededRandom(seed: 33)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    func text(_ count: Int) -> String { String((0 ..< count).map { _ in alphabet[seeded.below(alphabet.count)] }) }
    let ids = (0 ..< 1000).map { CryptoStoreCollection<Pickled>.id("!room\($0 % 40):example.org", text(43), text(43)) }
    do {
        let store = try CryptoStore.open(at: location)
        var writes: [Double] = []
        var appended = 0
        for id in ids {
            let before = benchNow(), size = store.sizeOnDisk
            try store.put(Pickled(pickle: text(300)), id: id, in: inbound)
            writes.append(Double(benchNow() - before) / 1000)
            if store.sizeOnDisk > size { appended = store.sizeOnDisk - size }
        }
        let compactStart = benchNow()
        try store.compact()
        let compacted = Double(benchNow() - compactStart) / 1_000_000
        let size = store.sizeOnDisk
        let openStart = benchNow()
        let reopened = try CryptoStore.open(at: location)
        _ = try reopened.values(in: inbound)
        let opened = Double(benchNow() - openStart) / 1_000_000
        // The alternative: each write replaces its shard (a temporary file, fsync, rename, fsync of the folder).
        let shardFolder = try PrivateDirectory(root + "/shards")
        let shard = [UInt8](repeating: 1, count: size / 16)
        var replaces: [Double] = []
        for _ in 0 ..< 100 {
            let before = benchNow()
            try shardFolder.replace("shard", with: shard, synchronized: true)
            replaces.append(Double(benchNow() - before) / 1000)
        }
        let write = percentiles(writes), replace = percentiles(replaces)
        let area = "crypto store"
        return [
            BenchmarkRow(area: area, name: "size on disk per 1,000 sessions of ~300 bytes (compacted)", value: String(format: "%.0f KB", Double(size) / 1000)),
            BenchmarkRow(area: area, name: "one session written, fsynced before a send (median / p99)",
                         value: String(format: "%.0f / %.0f µs, %d bytes appended", write.median, write.p99, appended)),
            BenchmarkRow(area: area, name: "instead replacing a 1/16 shard per write (median / p99)",
                         value: String(format: "%.0f / %.0f µs, %d bytes written", replace.median, replace.p99, shard.count)),
            BenchmarkRow(area: area, name: "compaction of 1,000 sessions", value: String(format: "%.1f ms", compacted)),
            BenchmarkRow(area: area, name: "open with 1,000 sessions and decode them", value: String(format: "%.1f ms", opened)),
        ]
    } catch {
        return [BenchmarkRow(area: "crypto store", name: "failed", value: "\(error)")]
    }
}
