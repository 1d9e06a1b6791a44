/// Splits a file into lines as it is read in chunks, in one reused buffer that never grows past
/// the line limit: a longer line is passed over (measured, never held), so one endless line
/// costs the limit in memory, not its length.
///
/// Reads with `read()` (never `mmap`: mapped pages count as resident memory) and finds newlines
/// with `memchr`.
struct LineScanner {
    /// A line, without its newline.
    enum Line {
        /// A line within the limit; the bytes are valid only during the call.
        case complete(UnsafeRawBufferPointer)
        /// A line over the limit, passed over: its length in bytes.
        case overlong(Int)
    }

    /// Where the scan ended.
    struct End {
        /// The offset just after the last newline: where the unfinished line, if any, starts.
        var endOfCompleteLines = 0
        /// Bytes after the last newline: a line still being written, not a line yet.
        var pendingBytes = 0
        /// Whether those bytes are already over the limit (they were passed over, not kept).
        var pendingIsOverlong = false
    }

    /// Calls `body` with each newline-terminated line and its file offset, blank lines included,
    /// reading `descriptor` from its position (the start) to its end.
    static func scan(_ descriptor: FileDescriptor, chunkSize: Int, lineLimit: Int = ThreadFileLimits.lineBytes,
                     _ body: (Line, Int) -> Void) throws -> End {
        try lines(descriptor, chunkSize: chunkSize, lineLimit: lineLimit) { line, offset in
            body(line, offset)
            return false
        }!
    }

    /// Whether a line makes `matches` true, reading as `scan` does up to that line's chunk and
    /// no further.
    static func contains(_ descriptor: FileDescriptor, chunkSize: Int, lineLimit: Int = ThreadFileLimits.lineBytes,
                         where matches: (Line, Int) -> Bool) throws -> Bool {
        try lines(descriptor, chunkSize: chunkSize, lineLimit: lineLimit, matches) == nil
    }

    /// Both `scan`s: `body` returns whether to stop.
    @inline(__always)
    private static func lines(_ descriptor: FileDescriptor, chunkSize: Int, lineLimit: Int,
                              _ body: (Line, Int) -> Bool) throws -> End? {
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, chunkSize), alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0              // bytes held in the buffer
        var bufferStart = 0         // file offset of buffer[0]
        var overlongStart: Int?     // file offset of a line being passed over (the buffer is empty then)
        while true {
            if filled == buffer.count {
                // The buffer holds one unfinished line (complete ones were moved out).
                if filled > lineLimit {
                    overlongStart = bufferStart
                    bufferStart += filled
                    filled = 0
                } else {
                    // A line longer than the buffer: the only time the buffer grows, never past the limit.
                    let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: min(buffer.count * 2, lineLimit + 1), alignment: 16)
                    bigger.baseAddress!.copyMemory(from: buffer.baseAddress!, byteCount: filled)
                    buffer.deallocate()
                    buffer = bigger
                }
            }
            let count = try descriptor.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            if count == 0 { break }
            let bytes = UnsafeRawBufferPointer(buffer)
            var lineStart = 0
            filled += count
            if let start = overlongStart {
                guard let newline = ByteSearch.firstNewline(in: bytes, from: 0, to: filled) else {
                    bufferStart += filled
                    filled = 0
                    continue
                }
                if body(.overlong(bufferStart + newline - start), start) { return nil }
                overlongStart = nil
                lineStart = newline + 1
            }
            while let newline = ByteSearch.firstNewline(in: bytes, from: lineStart, to: filled) {
                let length = newline - lineStart
                if body(length > lineLimit ? .overlong(length) : .complete(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<newline])),
                        bufferStart + lineStart) { return nil }
                lineStart = newline + 1
            }
            // Keep the unfinished line at the front for the next read (the regions may overlap).
            if lineStart > 0 {
                buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + lineStart, byteCount: filled - lineStart)
                bufferStart += lineStart
                filled -= lineStart
            }
        }
        if let start = overlongStart {
            return End(endOfCompleteLines: start, pendingBytes: bufferStart + filled - start, pendingIsOverlong: true)
        }
        return End(endOfCompleteLines: bufferStart, pendingBytes: filled)
    }
}
