/// Printing, dumping or a test failure shows where the store is and how much it holds, never
/// its records (they are decrypted in memory) nor its keys.
extension CryptoStore: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "CryptoStore(\(location.name), \(records.values.reduce(0) { $0 + $1.count }) records)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror {
        Mirror(self, children: ["location": location.name, "collections": records.keys.sorted().joined(separator: ", ")])
    }
}

/// The sealing keys are never printed or dumped.
extension CryptoStoreSeal: CustomStringConvertible, CustomReflectable {
    var description: String { "CryptoStoreSeal (keys not shown)" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// The header's derived keys are never printed or dumped.
extension CryptoStoreHeader.Keys: CustomStringConvertible, CustomReflectable {
    var description: String { "CryptoStoreHeader.Keys (not shown)" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
