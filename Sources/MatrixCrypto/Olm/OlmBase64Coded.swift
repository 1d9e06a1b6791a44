/// Key bytes stored as unpadded base64 text rather than an array of numbers: a stored session
/// is a third of the size, and reads back only if the text is base64. Lengths are checked by
/// the owner's `_checkInvariants`.
@propertyWrapper
struct OlmBase64Coded: Codable, Equatable, Sendable {
    var wrappedValue: [UInt8]

    init(wrappedValue: [UInt8]) { self.wrappedValue = wrappedValue }

    init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let bytes = UnpaddedBase64.decode(text) else { throw CryptoFailure("stored Olm key (not base64)") }
        wrappedValue = bytes
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(UnpaddedBase64.encode(wrappedValue))
    }
}
