import Glibc

/// What a thread file needs beyond plain reads and writes: its size, reads at an offset,
/// the append lock and flushing.
extension FileDescriptor {
    /// Waits for the exclusive lock that serializes appends between processes.
    func lockExclusive() throws {
        while flock(rawValue, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            throw SystemError("flock", path: path)
        }
    }

    /// Takes the exclusive lock if another writer lets go of it within about `tries` × 20 ms (no
    /// clock read: a short sleep between tries); else throws, naming the lock as held.
    func lockExclusive(tries: Int) throws {
        for attempt in 0..<max(1, tries) {
            if flock(rawValue, LOCK_EX | LOCK_NB) == 0 { return }
            guard errno == EWOULDBLOCK || errno == EINTR else { throw SystemError("flock", path: path) }
            if attempt + 1 < tries { usleep(20_000) }
        }
        throw SystemError(refusing: path, "another program holds the file's lock (it may be indexing a big file); try again", code: EWOULDBLOCK)
    }

    /// Releases the lock (closing the descriptor also does).
    func unlock() { _ = flock(rawValue, LOCK_UN) }

    /// The file's size in bytes.
    func size() throws -> Int {
        var status = stat()
        guard fstat(rawValue, &status) == 0 else { throw SystemError("fstat", path: path) }
        return Int(status.st_size)
    }

    /// Cuts the file back to `size` bytes (an append that failed part-way is taken back); the
    /// file position stays where it is.
    public func truncate(to size: Int) throws {
        while ftruncate(rawValue, off_t(size)) != 0 {
            if errno == EINTR { continue }
            throw SystemError("ftruncate", path: path)
        }
    }

    /// Flushes written data to the disk.
    public func synchronize() throws {
        while fsync(rawValue) != 0 {
            if errno == EINTR { continue }
            throw SystemError("fsync", path: path)
        }
    }

    /// The byte at an offset, read without moving the file position.
    func byte(at offset: Int) throws -> UInt8 {
        var byte: UInt8 = 0
        while true {
            let n = pread(rawValue, &byte, 1, off_t(offset))
            if n == 1 { return byte }
            if n < 0 && errno == EINTR { continue }
            throw SystemError("pread", path: path, code: n < 0 ? errno : EIO)
        }
    }

    /// Reads the next bytes at the file position into `buffer` with one `read()`; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let n = Glibc.read(rawValue, buffer.baseAddress, buffer.count)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            throw SystemError("read", path: path)
        }
    }

    /// Writes all of `bytes` at `offset` without moving the file position.
    func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        try bytes.withUnsafeBytes { buffer in
            while done < buffer.count {
                let n = pwrite(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemError("pwrite", path: path)
                }
                done += n
            }
        }
    }

    /// Reads `count` bytes at `offset` without moving the file position; fewer only at the end.
    public func read(at offset: Int, count: Int) throws -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        var filled = 0
        try result.withUnsafeMutableBytes { buffer in
            while filled < count {
                let n = pread(rawValue, buffer.baseAddress! + filled, count - filled, off_t(offset + filled))
                if n == 0 { break }
                if n < 0 {
                    if errno == EINTR { continue }
                    throw SystemError("pread", path: path)
                }
                filled += n
            }
        }
        result.removeLast(count - filled)
        return result
    }

    /// The file position: where the next write goes.
    public func position() throws -> Int {
        let offset = lseek(rawValue, 0, SEEK_CUR)
        guard offset >= 0 else { throw SystemError("lseek", path: path) }
        return Int(offset)
    }
}
