/// A named set of records of one `Codable` type in the crypto store, each under a string id:
/// e.g. Olm sessions by the peer's curve key, Megolm inbound sessions by room, sender key and
/// session id (`CryptoStoreCollection.id(_:)` joins such parts). The other parts of MatrixCrypto
/// declare theirs as constants; the name is what the store files know it by, so it never changes.
public struct CryptoStoreCollection<Value: Codable>: Sendable, Hashable {
    /// The collection's name in the store.
    public let name: String

    public init(_ name: String) {
        precondition(!name.isEmpty && name.utf8.count <= 255, "a collection's name is 1 to 255 bytes")
        self.name = name
    }

    /// One id made of several parts (a room, a sender key, a session id), joined so that no two
    /// lists of parts make the same id: each part's length comes before it.
    public static func id(_ parts: String...) -> String {
        parts.map { "\($0.utf8.count):\($0)" }.joined()
    }
}
