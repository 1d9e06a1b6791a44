import Foundation
import ThreadModel

/// One account's and device's crypto state on disk (Olm account and sessions, Megolm sessions,
/// device lists, cross-signing): named collections of `Codable` records, loaded whole when the
/// store opens, encrypted at rest, 0600 files in a 0700 folder (`PrivateDirectory` does all I/O).
///
/// Writes are small and durable: each `write` appends one sealed frame of its changes to a
/// journal and fsyncs it before returning, so a session key is on disk before the message it
/// encrypts is sent, and a kill at any point leaves every acknowledged write readable. Why a
/// journal and not one file per collection or shard: a change to one session is one append of
/// its own size and one fsync (a replaced file costs two fsyncs, a rename, and rewriting its
/// neighbours). Measured (`comment-tui-bench crypto-store`, 1,000 sessions of ~300 bytes, a
/// shared 2-core machine): a write appends ~530 bytes, median 0.18 ms, against 0.43 ms to replace
/// a sixteenth of the store (28 KB) as a shard; ~450 KB per 1,000 sessions; compacting or opening
/// them takes ~10 ms. When the journal has grown past the snapshot (and 256 KiB), the store is
/// compacted: a new snapshot of the next generation replaces the old one atomically, which makes
/// every frame of the old generation stale at once; then the journal is emptied. See
/// `CryptoStoreFormat` for the bytes.
///
/// Owned by one task at a time (the account's sync); two processes must not open one store.
public final class CryptoStore {
    /// Where the store is.
    public let location: CryptoStoreLocation
    /// What opening it had to set aside, if anything: shown to the person once.
    public let loss: CryptoStoreLoss?

    var records: [String: [String: [UInt8]]]
    let folder: PrivateDirectory
    let header: CryptoStoreHeader
    let keys: CryptoStoreHeader.Keys
    var random: any RandomSource
    var generation: UInt64
    var sequence: UInt64
    var journalBytes: Int
    var snapshotBytes: Int
    /// Set when an append failed part-way: the journal is rewritten before the next one.
    var journalNeedsReset = false

    /// The journal size, beyond the snapshot's, at which the store is compacted.
    static let smallestCompaction = 256 * 1024

    init(location: CryptoStoreLocation, loss: CryptoStoreLoss?, folder: PrivateDirectory, header: CryptoStoreHeader,
         keys: CryptoStoreHeader.Keys, random: any RandomSource, records: [String: [String: [UInt8]]], generation: UInt64,
         sequence: UInt64, journalBytes: Int, snapshotBytes: Int) {
        self.location = location
        self.loss = loss
        self.folder = folder
        self.header = header
        self.keys = keys
        self.random = random
        self.records = records
        self.generation = generation
        self.sequence = sequence
        self.journalBytes = journalBytes
        self.snapshotBytes = snapshotBytes
    }

    // MARK: Reading

    /// The record `id` of a collection; nil when there is none. Throws
    /// `CryptoStoreUnreadableRecord` when it no longer decodes as `Value` (its type changed shape,
    /// or the value refuses it); see there for what to do.
    public func value<Value>(_ id: String, in collection: CryptoStoreCollection<Value>) throws -> Value? {
        guard let bytes = records[collection.name]?[id] else { return nil }
        return try Self.decode(bytes, id: id, in: collection)
    }

    /// Every record of a collection, by id; throws `CryptoStoreUnreadableRecord` for the first
    /// (by id) that does not read.
    public func values<Value>(in collection: CryptoStoreCollection<Value>) throws -> [String: Value] {
        var values: [String: Value] = [:]
        for (id, bytes) in (records[collection.name] ?? [:]).sorted(by: { $0.key < $1.key }) {
            values[id] = try Self.decode(bytes, id: id, in: collection)
        }
        return values
    }

    /// The ids in a collection, sorted.
    public func ids<Value>(in collection: CryptoStoreCollection<Value>) -> [String] {
        (records[collection.name] ?? [:]).keys.sorted()
    }

    // MARK: Writing

    /// Changes made together: all of them reach the disk or none.
    public struct Batch {
        var changes: [CryptoStoreChange] = []

        /// Puts `value` under `id`, replacing what was there.
        public mutating func put<Value>(_ value: Value, id: String, in collection: CryptoStoreCollection<Value>) throws {
            changes.append(.put(collection: collection.name, id: id, value: try CryptoStore.encode(value)))
        }

        /// Removes the record `id` (none is no error).
        public mutating func remove<Value>(id: String, from collection: CryptoStoreCollection<Value>) {
            changes.append(.remove(collection: collection.name, id: id))
        }
    }

    /// Makes the changes `build` lists, all or none, and returns once they are on disk (fsynced):
    /// await it before sending anything they encrypt. When it throws, nothing changed in memory,
    /// and the store is rewritten at once without whatever of it reached the disk (its frame may
    /// have landed whole with only the fsync failing). Should that rewrite fail too, the next
    /// write retries it first; a process that ends before then may find the change applied on
    /// its next open. So a failed write's change is "maybe stored": never send what it encrypted.
    public func write(_ build: (inout Batch) throws -> Void) throws {
        var batch = Batch()
        try build(&batch)
        guard !batch.changes.isEmpty else { return }
        if journalNeedsReset { try compact() }
        let frame = try CryptoStoreFormat.frame(generation: generation, sequence: sequence + 1, changes: batch.changes,
                                                seal: keys.seal, random: &random)
        do {
            try folder.append(CryptoStoreFormat.journalFile, frame)
        } catch {
            journalNeedsReset = true
            // Compacting writes the records in memory (without this change) as a new generation,
            // which makes any frame of it that landed stale.
            try? compact()
            throw error
        }
        sequence += 1
        journalBytes += frame.count
        CryptoStoreFormat.apply(batch.changes, to: &records)
        _checkInvariants()
        if journalBytes > max(Self.smallestCompaction, snapshotBytes) {
            // The write is already durable; a compaction that fails is tried again next time.
            try? compact()
        }
    }

    /// Puts one record, durably (see `write`).
    public func put<Value>(_ value: Value, id: String, in collection: CryptoStoreCollection<Value>) throws {
        try write { try $0.put(value, id: id, in: collection) }
    }

    /// Removes one record, durably (see `write`).
    public func remove<Value>(id: String, from collection: CryptoStoreCollection<Value>) throws {
        try write { $0.remove(id: id, from: collection) }
    }

    /// Rewrites the store as one snapshot of the next generation and empties the journal.
    public func compact() throws {
        let next = generation + 1
        let bytes = try CryptoStoreFormat.snapshot(header: header, keys: keys, generation: next, records: records, random: &random)
        try folder.replace(CryptoStoreFormat.snapshotFile, with: bytes, synchronized: true)
        // From here the old journal's frames are stale: a kill before it is emptied loses nothing.
        generation = next
        sequence = 0
        snapshotBytes = bytes.count
        journalNeedsReset = true
        try folder.replace(CryptoStoreFormat.journalFile, with: [], synchronized: true)
        journalBytes = 0
        journalNeedsReset = false
        _checkInvariants()
    }

    /// What holds between calls: no empty collection is kept (the snapshot would differ from the
    /// same records written another way), and a journal with frames has bytes.
    func _checkInvariants() {
        assert(records.values.allSatisfy { !$0.isEmpty }, "an emptied collection is dropped")
        assert(sequence == 0 || journalBytes > 0, "frames were counted but no bytes")
    }

    /// The bytes the store takes on disk now (snapshot and journal).
    public var sizeOnDisk: Int { snapshotBytes + journalBytes }

    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    static func decode<Value>(_ bytes: [UInt8], id: String, in collection: CryptoStoreCollection<Value>) throws -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(bytes))
        } catch {
            throw CryptoStoreUnreadableRecord(collection: collection.name, id: id, type: "\(Value.self)")
        }
    }
}
