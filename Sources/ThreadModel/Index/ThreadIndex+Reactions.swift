extension ThreadIndex {
    /// Calls `body` with each reaction record of the file as indexed, in file order with its
    /// line: the file is read again from its start (one pass, nothing kept), for `render`, which
    /// names the records that do not count.
    public func forEachReactionRecord(_ body: (ReactionChange, Int) -> Void) throws {
        try descriptor.seek(to: 0)
        let decoder = ThreadRecordDecoder()
        let prefix = ThreadIndexScan.commentPrefix
        let end = follower.offset
        var line = 0
        _ = try LineScanner.scan(descriptor, chunkSize: ThreadIndexScan.chunkSize) { scanned, offset in
            line += 1
            guard offset < end, case .complete(let bytes) = scanned, !bytes.isEmpty,
                  !ThreadIndexScan.isCanonicalComment(bytes, prefix: prefix),
                  case .record(.reaction(let change)) = decoder.decode(ArraySlice(bytes)) else { return }
            body(change, line)
        }
    }
}
