import ThreadModel

/// Our cross-signing keys as the crypto store keeps them (encrypted at rest): the user and the
/// three seeds in unpadded base64, as secret storage holds them.
extension CrossSigningKeys: Codable {
    private enum CodingKeys: String, CodingKey {
        case userID, master, selfSigning, userSigning
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func seed(_ key: CodingKeys) throws -> [UInt8] {
            guard let seed = UnpaddedBase64.decode(try container.decode(String.self, forKey: key)) else {
                throw CrossSigningRefusal("a stored cross-signing key is not base64")
            }
            return seed
        }
        try self.init(userID: container.decode(String.self, forKey: .userID), masterSeed: seed(.master),
                      selfSigningSeed: seed(.selfSigning), userSigningSeed: seed(.userSigning))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(userID, forKey: .userID)
        try container.encode(UnpaddedBase64.encode(master.seed), forKey: .master)
        try container.encode(UnpaddedBase64.encode(selfSigning.seed), forKey: .selfSigning)
        try container.encode(UnpaddedBase64.encode(userSigning.seed), forKey: .userSigning)
    }
}
