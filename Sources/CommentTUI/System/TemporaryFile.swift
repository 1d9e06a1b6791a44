import Glibc
import ThreadModel

/// An unnamed temporary file (`tmpfile`): gone from the disk once closed, whoever closes it.
final class TemporaryFile {
    private let stream: UnsafeMutablePointer<FILE>
    /// Its descriptor, open for reading and writing.
    let descriptor: FileDescriptor

    /// Creates the file in the system's temporary directory.
    init() throws {
        guard let stream = tmpfile() else { throw SystemError("tmpfile") }
        self.stream = stream
        descriptor = FileDescriptor(rawValue: fileno(stream))
    }

    /// Closes the file, and with it the descriptor.
    func close() { fclose(stream) }
}
