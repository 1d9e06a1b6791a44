import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

/// Edits text in the user's editor (`$VISUAL`, else `$EDITOR`, else `vi`), as Ctrl-X Ctrl-E does
/// in bash: the text goes to a private temporary file, the editor runs on the terminal, and the
/// file's contents come back.
struct ExternalEditor {
    /// The editor's command line as the user wrote it (may carry arguments, e.g. `code -w`).
    var command: String
    var environment: [String: String]

    /// The editor the environment asks for.
    init(environment: [String: String]) {
        self.environment = environment
        let chosen = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
        command = chosen ?? "vi"
    }

    /// Why an edit did not come back.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// The editor's file, kept because it holds text the draft did not take (shown escaped).
        var keptFile: String?
    }

    /// The most the editor's text may hold: what a comment holds (1 MiB), and the newline an
    /// editor ends the file with.
    static let maximumBytes = ThreadFileLimits.bodyBytes + 1

    /// Runs the editor on `text` and returns what was saved; throws (keeping nothing) when the
    /// editor could not start or exited with a failure. Text over `maximumBytes` is refused,
    /// its file kept and named. With `signals`, the wait for the editor ends when the terminal
    /// hangs up or the client is told to end (SIGHUP, SIGTERM): the editor is ended too, and
    /// a file it saved is kept and named.
    func edit(_ text: String, signals: SignalPipe? = nil) throws -> String {
        let directory = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array("\(directory)/comment-tui-draft-XXXXXX.md".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard fd >= 0 else { throw Failure(description: "cannot create a file in \(directory): \(String(cString: strerror(errno)))") }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let shownPath = VisibleText.escape(path)
        // Removed unless it holds what the person wrote and did not get back.
        var keepsFile = false
        defer { if !keepsFile { unlink(path) } }
        let file = FileDescriptor(rawValue: fd)
        do {
            try file.writeAll(Array(text.utf8))
            file.close()
        } catch {
            file.close()
            throw Failure(description: "cannot write \(shownPath): \(error)")
        }
        // The command is the user's own shell text; the file reaches it as "$1", never as code.
        let environ = environment.map { "\($0.key)=\($0.value)" }
        // Routed before the editor starts: its end wakes the wait below.
        signals?.install(SIGCHLD)
        defer { signals?.remove(SIGCHLD) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(path: "/bin/sh", arguments: ["sh", "-c", command + " \"$1\"", "sh", path],
                                           environment: environ, standardError: FileDescriptor.standardOutput)
        } catch {
            throw Failure(description: "cannot start the editor '\(command)': \(error)")
        }
        let ended: ChildProcess.Termination
        do {
            ended = try EditorWait(child: child, signals: signals).run()
        } catch let hangUp as EditorWait.Ended {
            keepsFile = Self.read(path, limit: Self.maximumBytes).map { $0 != Array(text.utf8) } ?? false
            let kept = keepsFile ? "; what it saved is kept in \(shownPath)" : ""
            throw Failure(description: "the editor '\(command)' was ended (\(SignalName.of(hangUp.signal)))\(kept)",
                          keptFile: keepsFile ? shownPath : nil)
        }
        switch ended {
        case .exited(0): break
        case .exited(let status): throw Failure(description: "the editor '\(command)' exited with status \(status)")
        case .signaled(let signal): throw Failure(description: "the editor '\(command)' was killed by signal \(signal)")
        }
        guard let data = Self.read(path, limit: Self.maximumBytes) else {
            throw Failure(description: "cannot read back \(shownPath)")
        }
        var edited = String(decoding: data, as: UTF8.self)
        // Editors end the last line with a newline; the draft did not have one.
        if edited.hasSuffix("\n") && !text.hasSuffix("\n") { edited.removeLast() }
        // Counted without that newline: 1 MiB and one more byte of text is over.
        guard data.count <= Self.maximumBytes, edited.utf8.count <= ThreadFileLimits.bodyBytes else {
            // Never cut: the text stays whole in its file, and the draft as it was.
            keepsFile = true
            throw Failure(description: "the edited text is over the 1 MiB a comment holds; it is kept in \(shownPath)", keptFile: shownPath)
        }
        return edited
    }

    /// Up to `limit` + 1 bytes of the file at `path` (one more than the limit says it is over);
    /// nil when it cannot be read or is not a regular file.
    private static func read(_ path: String, limit: Int) -> [UInt8]? {
        // Without blocking: a FIFO put in its place would wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard fd >= 0 else { return nil }
        let file = FileDescriptor(rawValue: fd)
        defer { file.close() }
        // A FIFO or device reads as empty (or endless): it would empty the draft, never edit it.
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            guard let chunk = try? file.read(upTo: min(1 << 16, limit + 1 - bytes.count)) else { return nil }
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }
}
