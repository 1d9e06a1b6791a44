import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

/// Where ncurses writes a frame before the terminal sees any of it.
///
/// ncurses 6.4 writes an update row by row (one `write()` per row, a hundred for a tall page),
/// and a terminal or multiplexer that reads between two of them shows half a frame. So ncurses
/// writes into an unnamed file instead, and `take()` hands over everything since the last call,
/// which the screen sends on with its own bytes in one `write()`. A file, unlike a pipe, never
/// fills up while ncurses is still writing.
struct FrameStage {
    /// The stream ncurses writes to.
    let stream: UnsafeMutablePointer<FILE>
    private let file: FileDescriptor

    init() throws {
        // /dev/shm keeps it in memory where there is one (and it is writable).
        file = try (try? FileDescriptor.openUnnamed(in: "/dev/shm")) ?? FileDescriptor.openUnnamed(in: NSTemporaryDirectory())
        stream = try file.stream(mode: "w")
    }

    /// The bytes written since the last call; the file starts empty again.
    func take() -> [UInt8] {
        fflush(stream)
        guard let length = try? file.position(), length > 0, let bytes = try? file.read(at: 0, count: length) else { return [] }
        try? file.truncate(to: 0)
        try? file.seek(to: 0)
        return bytes
    }

    /// Closes the file (and with it the stream).
    func close() { fclose(stream) }
}
