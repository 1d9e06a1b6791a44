import ThreadModel

extension CryptoStore {
    /// Opens (or makes) the store at `location`. Its key is read from beside the access token, or
    /// made and written there first. A store that does not read (another key, a changed byte, a
    /// file cut short or not the store's) is set aside under a new name, never overwritten or
    /// deleted, and a fresh store starts: `loss` then says what happened, for the person.
    ///
    /// Throws `CryptoStoreRefusal`, leaving the store as it is, when a passphrase is needed and
    /// missing or wrong (or given to a store made without one); a folder that is not private
    /// (another's, or writable by others) is refused as `PrivateDirectory` refuses it.
    /// `passphrase` and `passphraseIterations` are what a new store is made with.
    public static func open(at location: CryptoStoreLocation, passphrase: String? = nil, random: any RandomSource = SystemRandom(),
                            passphraseIterations: UInt32 = 210_000) throws -> CryptoStore {
        var random = random
        let key = try CryptoStoreKey.load(folder: try PrivateDirectory(location.keyFolder), file: location.keyFile, random: &random)
        let parent = try PrivateDirectory(location.parent)
        var folder = try PrivateDirectory(location.path)
        do {
            if let store = try read(location, folder: folder, key: key, passphrase: passphrase, random: random) { return store }
            return try create(location, folder: folder, key: key.key, passphrase: passphrase, iterations: passphraseIterations,
                              random: random, loss: nil)
        } catch let damage as CryptoStoreFormat.Damage {
            let kept = try parent.setAside(location.name)
            folder = try PrivateDirectory(location.path)
            return try create(location, folder: folder, key: key.key, passphrase: passphrase, iterations: passphraseIterations,
                              random: random, loss: CryptoStoreLoss(reason: damage.reason, keptAt: kept))
        }
    }

    /// The store in `folder`; nil when there is none yet. Throws `Damage` for one that does not read.
    private static func read(_ location: CryptoStoreLocation, folder: PrivateDirectory, key: CryptoStoreKey.Loaded,
                             passphrase: String?, random: any RandomSource) throws -> CryptoStore? {
        let snapshot = try folder.read(CryptoStoreFormat.snapshotFile)
        let journal = try folder.read(CryptoStoreFormat.journalFile) ?? []
        guard let snapshot else {
            if journal.isEmpty { return nil }
            throw CryptoStoreFormat.Damage(reason: "its snapshot file is missing")
        }
        let parts = try CryptoStoreFormat.snapshotParts(snapshot)
        guard ConstantTime.equal(try parts.header.keyCheck(storeKey: key.key), parts.keyCheck) else {
            if let made = key.madeBecause { throw CryptoStoreFormat.Damage(reason: "\(made), and the new key does not open it") }
            throw CryptoStoreFormat.Damage(reason: "the store key beside the access token does not match it")
        }
        switch (parts.header.stretching, passphrase) {
        case (.some, nil): throw CryptoStoreRefusal.passphraseNeeded
        case (nil, .some): throw CryptoStoreRefusal.noPassphrase
        default: break
        }
        let keys = try parts.header.keys(storeKey: key.key, passphrase: passphrase)
        if let check = parts.passphraseCheck, !ConstantTime.equal(check, keys.passphraseCheck) { throw CryptoStoreRefusal.wrongPassphrase }
        var records = try CryptoStoreFormat.records(in: parts, seal: keys.seal)
        let frames = try CryptoStoreFormat.journal(journal, generation: parts.generation, seal: keys.seal)
        for changes in frames.changes { CryptoStoreFormat.apply(changes, to: &records) }
        let store = CryptoStore(location: location, loss: nil, folder: folder, header: parts.header, keys: keys, random: random,
                                records: records, generation: parts.generation, sequence: frames.lastSequence,
                                journalBytes: journal.count, snapshotBytes: snapshot.count)
        // A cut-short frame or stale ones must not have frames appended after them.
        if frames.tornTail || frames.staleFrames > 0 { try store.compact() }
        for file in [CryptoStoreFormat.snapshotFile, CryptoStoreFormat.journalFile] { try? folder.removeLeftovers(of: file) }
        return store
    }

    /// A new, empty store in `folder` (whose snapshot and journal are absent or set aside).
    private static func create(_ location: CryptoStoreLocation, folder: PrivateDirectory, key: CryptoStoreKey, passphrase: String?,
                               iterations: UInt32, random: any RandomSource, loss: CryptoStoreLoss?) throws -> CryptoStore {
        var random = random
        var header = CryptoStoreHeader(salt: try random.bytes(CryptoStoreHeader.saltLength), stretching: nil)
        if passphrase != nil {
            precondition((1 ... CryptoStoreHeader.maximumIterations).contains(iterations), "a passphrase is stretched 1 to 10,000,000 times")
            header.stretching = .init(iterations: iterations, salt: try random.bytes(CryptoStoreHeader.stretchingSaltLength))
        }
        let keys = try header.keys(storeKey: key, passphrase: passphrase)
        let snapshot = try CryptoStoreFormat.snapshot(header: header, keys: keys, generation: 1, records: [:], random: &random)
        try folder.replace(CryptoStoreFormat.snapshotFile, with: snapshot, synchronized: true)
        try folder.replace(CryptoStoreFormat.journalFile, with: [], synchronized: true)
        return CryptoStore(location: location, loss: loss, folder: folder, header: header, keys: keys, random: random, records: [:],
                           generation: 1, sequence: 0, journalBytes: 0, snapshotBytes: snapshot.count)
    }
}
