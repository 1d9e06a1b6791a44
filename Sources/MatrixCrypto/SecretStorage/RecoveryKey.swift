/// A recovery key as Element shows it (Client-Server API, "Key representation"): base58 of
/// `0x8B 0x01`, the 32-byte secret storage key, and a parity byte (the XOR of all before it),
/// in groups of four characters. People type it, so spaces and line breaks are ignored.
public struct RecoveryKey: Sendable {
    /// What is wrong with a typed recovery key, in words a person can act on.
    public struct Refusal: Error, Equatable, CustomStringConvertible {
        public let reason: String
        public var description: String { "not a recovery key: \(reason)" }
    }

    /// The 32-byte secret storage key.
    public let key: [UInt8]

    public init(key: [UInt8]) { self.key = key }

    /// Reads a typed recovery key.
    public init(typed text: String) throws {
        let compact = String(text.unicodeScalars.filter { !$0.properties.isWhitespace })
        guard compact.utf8.count <= 64 else { throw Refusal(reason: "too long") }
        guard let bytes = Base58.decode(compact) else { throw Refusal(reason: "a character that recovery keys do not use") }
        guard bytes.count == 35 else { throw Refusal(reason: "the wrong length (check for a missing or extra group)") }
        guard bytes[0] == 0x8B, bytes[1] == 0x01 else { throw Refusal(reason: "the wrong prefix") }
        guard bytes.reduce(0, ^) == 0 else { throw Refusal(reason: "a mistyped character (the parity does not check)") }
        key = Array(bytes[2 ..< 34])
    }

    /// The key as Element shows it: groups of four separated by spaces.
    public var displayed: String {
        var bytes: [UInt8] = [0x8B, 0x01] + key
        bytes.append(bytes.reduce(0, ^))
        let text = Array(Base58.encode(bytes))
        return stride(from: 0, to: text.count, by: 4).map { String(text[$0 ..< min($0 + 4, text.count)]) }.joined(separator: " ")
    }
}

/// Never printed or dumped: the key opens all the account's secrets (`displayed` is for the
/// one screen that shows it to its owner).
extension RecoveryKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "recovery key (not shown)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
