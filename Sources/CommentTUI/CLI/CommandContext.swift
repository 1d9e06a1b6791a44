import Foundation
import ThreadModel

/// What a verb may touch: its streams, environment and clock; the process's own, or fakes in tests.
public struct CommandContext {
    /// Environment variables (`USER`, `HOME`, `XDG_DATA_HOME`).
    public var environment: [String: String]
    /// The current time, for new comments and threads.
    public var now: () -> Date
    /// Writes bytes to standard output.
    public var writeOutput: ([UInt8]) throws -> Void
    /// Writes text to standard error.
    public var writeError: (String) -> Void
    /// Reads standard input to its end, or to `limit` + 1 bytes (more than a verb takes: it
    /// stops there rather than hold whatever is piped in).
    public var readInput: (_ limit: Int) throws -> [UInt8]
    /// Whether standard input is a terminal (a verb must not wait on one).
    public var inputIsTerminal: Bool
    /// Reads a line from the terminal without echoing it (a password); nil at end of input.
    public var readSecret: () throws -> String? = { try TerminalDevice.readLineUnechoed() }

    public init(environment: [String: String], now: @escaping () -> Date, writeOutput: @escaping ([UInt8]) throws -> Void,
                writeError: @escaping (String) -> Void, readInput: @escaping (_ limit: Int) throws -> [UInt8], inputIsTerminal: Bool) {
        self.environment = environment
        self.now = now
        self.writeOutput = writeOutput
        self.writeError = writeError
        self.readInput = readInput
        self.inputIsTerminal = inputIsTerminal
    }

    /// The process's own streams, environment and clock.
    public static func process() -> CommandContext {
        CommandContext(
            environment: ProcessInfo.processInfo.environment,
            now: { Date() },
            writeOutput: { try FileDescriptor.standardOutput.writeAll($0) },
            writeError: { try? FileDescriptor.standardError.writeAll(Array($0.utf8)) },
            readInput: { limit in
                var bytes: [UInt8] = []
                while bytes.count <= limit {
                    let chunk = try FileDescriptor.standardInput.read(upTo: min(1 << 16, limit + 1 - bytes.count))
                    if chunk.isEmpty { break }
                    bytes += chunk
                }
                return bytes
            },
            inputIsTerminal: FileDescriptor.standardInput.isTerminal)
    }

    /// Standard input as text; when it holds more than `limit` bytes, throws "`what` on standard
    /// input is over the `limitName` limit; `outcome`" without reading the rest.
    func readInput(_ what: String, limit: Int, limitName: String, outcome: String) throws -> String {
        let bytes = try readInput(limit)
        guard bytes.count <= limit else {
            throw CommandFailure("\(what) on standard input is over the \(limitName) limit; \(outcome)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Writes a line of text to standard output.
    func print(_ line: String) throws { try writeOutput(Array((line + "\n").utf8)) }
}
