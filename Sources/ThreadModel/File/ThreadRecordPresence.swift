/// Whether a thread file holds its thread record, asked by a writer under the append lock.
///
/// A file cut to empty (or holding only garbage) has none: a comment appended to it would make
/// a "thread" of comments with no title, post or author, which no reader opens as the thread
/// it was. Readers take the first thread record on any line within the line limit; `new`
/// writes it as the first, so one line is read in the usual case, and the file up to the
/// record when that line is another.
enum ThreadRecordPresence {
    /// Bytes read at a time while looking for the first line's end.
    static let firstChunk = 4 << 10
    /// Bytes read at a time when the record is on a later line: it is rarely far in.
    static let laterChunk = 64 << 10

    /// Whether `file` (open and locked) holds a thread record on a complete line.
    static func check(_ file: FileDescriptor) throws -> Bool {
        let decoder = ThreadRecordDecoder()
        if let line = try firstLine(of: file), case .record(.thread) = decoder.decode(line) { return true }
        try file.seek(to: 0)
        let prefix = ThreadIndexScan.commentPrefix
        return try LineScanner.contains(file, chunkSize: laterChunk) { line, _ in
            guard case .complete(let bytes) = line, !bytes.isEmpty,
                  !ThreadIndexScan.isCanonicalComment(bytes, prefix: prefix) else { return false }
            if case .record(.thread) = decoder.decode(ArraySlice(bytes)) { return true }
            return false
        }
    }

    /// The file's first line without its newline; nil when there is no complete one within
    /// the line limit (an empty file, a torn line, one readers skip as too long).
    private static func firstLine(of file: FileDescriptor) throws -> ArraySlice<UInt8>? {
        var bytes: [UInt8] = []
        var chunk = firstChunk
        // Never past one byte over the limit: a newline found is then within it.
        while bytes.count <= ThreadFileLimits.lineBytes {
            let count = min(chunk, ThreadFileLimits.lineBytes + 1 - bytes.count)
            let more = try file.read(at: bytes.count, count: count)
            if let newline = more.firstIndex(of: 0x0A) { return (bytes + more[..<newline])[...] }
            bytes += more
            if more.count < count { return nil }
            chunk *= 2
        }
        return nil
    }
}
