/// The store's two files, both written only through `PrivateDirectory`:
/// - `snapshot`: the header (`CryptoStoreHeader`), a generation number, and every record sealed
///   as one list of puts; replaced whole (temporary file, fsync, rename, fsync of the folder).
/// - `journal`: the changes since, one sealed frame per write, appended and fsynced. A frame is
///   its length and a 4-byte check of the length (so a damaged length is told from a write cut
///   short), the snapshot generation it follows, its sequence number (1, 2, … within the
///   generation, so a lost or repeated frame in the middle is found), and the sealed changes.
///
/// A frame cut short at the very end (or a tail of zeros) is a write a kill interrupted: it was
/// never acknowledged, so it is dropped. Anything else that does not check is damage.
enum CryptoStoreFormat {
    static let snapshotFile = "snapshot"
    static let journalFile = "journal"

    /// Something in the files that does not read, in words for the account of loss.
    struct Damage: Error, Equatable {
        let reason: String
    }

    /// A frame's clear part before the sealed changes: length, length check, generation, sequence.
    static let frameHeaderLength = 4 + 4 + 8 + 8

    // MARK: Snapshot

    /// The snapshot file's bytes.
    static func snapshot(header: CryptoStoreHeader, keys: CryptoStoreHeader.Keys, generation: UInt64,
                         records: [String: [String: [UInt8]]], random: inout any RandomSource) throws -> [UInt8] {
        var puts: [CryptoStoreChange] = []
        for collection in records.keys.sorted() {
            for (id, value) in records[collection]!.sorted(by: { $0.key < $1.key }) {
                puts.append(.put(collection: collection, id: id, value: value))
            }
        }
        var clear = StoreByteWriter()
        clear.append(header.encoded(with: keys))
        clear.append(generation)
        let sealed = try keys.seal.seal(CryptoStoreChange.encode(puts), context: Array("snapshot".utf8) + clear.bytes, random: &random)
        return clear.bytes + sealed
    }

    /// A snapshot file split into its parts, nothing checked yet but the layout.
    struct SnapshotParts {
        var header: CryptoStoreHeader
        var keyCheck: [UInt8]
        var passphraseCheck: [UInt8]?
        var generation: UInt64
        var context: [UInt8]
        var sealed: [UInt8]
    }

    static func snapshotParts(_ bytes: [UInt8]) throws -> SnapshotParts {
        var reader = StoreByteReader(bytes)
        do {
            let (header, keyCheck, passphraseCheck) = try CryptoStoreHeader.decode(&reader)
            let generation = try reader.uint64()
            let clear = Array(bytes[0 ..< reader.offset])
            return SnapshotParts(header: header, keyCheck: keyCheck, passphraseCheck: passphraseCheck, generation: generation,
                                 context: Array("snapshot".utf8) + clear, sealed: try reader.take(reader.remaining))
        } catch {
            throw Damage(reason: "its snapshot file is not one comment-tui wrote, or was cut short")
        }
    }

    /// The records a checked snapshot holds.
    static func records(in parts: SnapshotParts, seal: CryptoStoreSeal) throws -> [String: [String: [UInt8]]] {
        guard let plain = try seal.open(parts.sealed, context: parts.context) else {
            throw Damage(reason: "its snapshot does not check: a byte was changed or the file was cut short")
        }
        var records: [String: [String: [UInt8]]] = [:]
        guard let changes = try? CryptoStoreChange.decode(plain) else { throw Damage(reason: "its snapshot does not decode") }
        apply(changes, to: &records)
        return records
    }

    // MARK: Journal

    /// One write's frame.
    static func frame(generation: UInt64, sequence: UInt64, changes: [CryptoStoreChange], seal: CryptoStoreSeal,
                      random: inout any RandomSource) throws -> [UInt8] {
        let plain = CryptoStoreChange.encode(changes)
        let length = UInt32(8 + 8 + CryptoStoreSeal.overhead + plain.count)
        var clear = StoreByteWriter()
        clear.append(length)
        clear.append(try lengthCheck(length, seal: seal))
        clear.append(generation)
        clear.append(sequence)
        return clear.bytes + (try seal.seal(plain, context: Array("journal".utf8) + clear.bytes, random: &random))
    }

    /// What the journal holds for the snapshot of `generation`.
    struct Journal {
        /// The changes of the generation's frames, in order.
        var changes: [[CryptoStoreChange]] = []
        /// The last sequence number read (0 for none).
        var lastSequence: UInt64 = 0
        /// Frames of earlier generations (a compaction that ended before emptying the journal).
        var staleFrames = 0
        /// Whether the last frame was cut short (or zeros, or ends the file without checking), and
        /// dropped.
        var tornTail = false
    }

    static func journal(_ bytes: [UInt8], generation: UInt64, seal: CryptoStoreSeal) throws -> Journal {
        do {
            return try frames(bytes, generation: generation, seal: seal)
        } catch let damage as Damage {
            throw damage
        } catch {
            throw Damage(reason: "its journal does not read")
        }
    }

    private static func frames(_ bytes: [UInt8], generation: UInt64, seal: CryptoStoreSeal) throws -> Journal {
        var journal = Journal()
        var reader = StoreByteReader(bytes)
        while reader.remaining > 0 {
            let start = reader.offset
            if bytes[start...].allSatisfy({ $0 == 0 }) || reader.remaining < 8 {
                journal.tornTail = true
                break
            }
            let length = try reader.uint32()
            guard ConstantTime.equal(try reader.take(4), try lengthCheck(length, seal: seal)) else {
                throw Damage(reason: "its journal's record \(journal.changes.count + journal.staleFrames + 1) does not check")
            }
            guard Int(length) <= reader.remaining else {
                journal.tornTail = true
                break
            }
            let frameGeneration = try reader.uint64()
            let sequence = try reader.uint64()
            let context = Array("journal".utf8) + Array(bytes[start ..< reader.offset])
            guard Int(length) >= 16 + CryptoStoreSeal.overhead else {
                throw Damage(reason: "its journal's record \(journal.changes.count + journal.staleFrames + 1) does not check: a byte was changed")
            }
            let opened = try seal.open(try reader.take(Int(length) - 16), context: context)
            // The last frame, ending at the end of the file, that does not check: an append whose
            // length landed but not all its bytes (power lost before its fsync returned, so never
            // acknowledged). Dropped like a frame cut short; a bad frame before it stays damage.
            if opened == nil, reader.remaining == 0 {
                journal.tornTail = true
                break
            }
            guard let plain = opened, let changes = try? CryptoStoreChange.decode(plain) else {
                throw Damage(reason: "its journal's record \(journal.changes.count + journal.staleFrames + 1) does not check: a byte was changed")
            }
            if frameGeneration < generation, journal.changes.isEmpty {
                journal.staleFrames += 1
                continue
            }
            guard frameGeneration == generation, sequence == journal.lastSequence + 1 else {
                throw Damage(reason: "its journal's records are out of order (one is missing or repeated, or the snapshot is older)")
            }
            journal.changes.append(changes)
            journal.lastSequence = sequence
        }
        return journal
    }

    /// Applies changes in order.
    static func apply(_ changes: [CryptoStoreChange], to records: inout [String: [String: [UInt8]]]) {
        for change in changes {
            switch change {
            case let .put(collection, id, value): records[collection, default: [:]][id] = value
            case let .remove(collection, id):
                records[collection]?[id] = nil
                if records[collection]?.isEmpty == true { records[collection] = nil }
            }
        }
    }

    private static func lengthCheck(_ length: UInt32, seal: CryptoStoreSeal) throws -> [UInt8] {
        var writer = StoreByteWriter()
        writer.append(Array("frame length".utf8))
        writer.append(length)
        return Array(try seal.check(writer.bytes).prefix(4))
    }
}
