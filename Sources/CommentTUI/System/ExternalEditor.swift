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
    }

    /// Runs the editor on `text` and returns what was saved; throws (keeping nothing) when the
    /// editor could not start or exited with a failure.
    func edit(_ text: String) throws -> String {
        let directory = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array("\(directory)/comment-tui-draft-XXXXXX.md".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, 3) }
        guard fd >= 0 else { throw Failure(description: "cannot create a file in \(directory): \(String(cString: strerror(errno)))") }
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        let file = FileDescriptor(rawValue: fd)
        do {
            try file.writeAll(Array(text.utf8))
            file.close()
        } catch {
            file.close()
            throw Failure(description: "cannot write \(path): \(error)")
        }
        // The command is the user's own shell text; the file reaches it as "$1", never as code.
        let environ = environment.map { "\($0.key)=\($0.value)" }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(path: "/bin/sh", arguments: ["sh", "-c", command + " \"$1\"", "sh", path],
                                           environment: environ, standardError: FileDescriptor.standardOutput)
        } catch {
            throw Failure(description: "cannot start the editor '\(command)': \(error)")
        }
        var ended: ChildProcess.Termination?
        repeat { ended = try child.wait() } while ended == nil
        switch ended {
        case .exited(0)?: break
        case .exited(let status)?: throw Failure(description: "the editor '\(command)' exited with status \(status)")
        case .signaled(let signal)?: throw Failure(description: "the editor '\(command)' was killed by signal \(signal)")
        case nil: break
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "cannot read back \(path)")
        }
        var edited = String(decoding: data, as: UTF8.self)
        // Editors end the last line with a newline; the draft did not have one.
        if edited.hasSuffix("\n") && !text.hasSuffix("\n") { edited.removeLast() }
        return edited
    }
}
