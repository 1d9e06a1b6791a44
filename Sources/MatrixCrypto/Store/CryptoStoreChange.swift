/// One change to the store's records: a value put under an id in a collection (replacing any
/// there), or an id removed. A write is a list of them, applied together or not at all; the
/// snapshot is the list of puts that makes the whole store.
enum CryptoStoreChange: Equatable {
    case put(collection: String, id: String, value: [UInt8])
    case remove(collection: String, id: String)

    private static let putTag: UInt8 = 1
    private static let removeTag: UInt8 = 2

    /// The smallest encoded change (a tag and two empty names): bounds how many a list can claim.
    private static let smallestSize = 1 + 2 + 4

    /// The changes as bytes: a 32-bit count, then each as a tag, the collection (16-bit length),
    /// the id and a put's value (32-bit lengths).
    static func encode(_ changes: [CryptoStoreChange]) -> [UInt8] {
        var writer = StoreByteWriter()
        writer.append(UInt32(changes.count))
        for change in changes {
            switch change {
            case let .put(collection, id, value):
                writer.append(putTag)
                writer.appendShort(collection)
                writer.appendLong(id)
                writer.appendLong(value)
            case let .remove(collection, id):
                writer.append(removeTag)
                writer.appendShort(collection)
                writer.appendLong(id)
            }
        }
        return writer.bytes
    }

    /// Reads what `encode` wrote; throws `StoreByteReader.Short` for anything else (a count the
    /// bytes cannot hold, an unknown tag, a name that is not UTF-8, bytes left over).
    static func decode(_ bytes: [UInt8]) throws -> [CryptoStoreChange] {
        var reader = StoreByteReader(bytes)
        let count = Int(try reader.uint32())
        guard count <= reader.remaining / smallestSize else { throw StoreByteReader.Short() }
        var changes: [CryptoStoreChange] = []
        changes.reserveCapacity(count)
        for _ in 0 ..< count {
            let tag = try reader.byte()
            let collection = try reader.short()
            let id = try reader.longText()
            switch tag {
            case putTag: changes.append(.put(collection: collection, id: id, value: try reader.long()))
            case removeTag: changes.append(.remove(collection: collection, id: id))
            default: throw StoreByteReader.Short()
            }
        }
        guard reader.remaining == 0 else { throw StoreByteReader.Short() }
        return changes
    }
}
