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
    /// Reads standard input to its end.
    public var readInput: () throws -> [UInt8]
    /// Whether standard input is a terminal (a verb must not wait on one).
    public var inputIsTerminal: Bool
    /// Reads a line from the terminal without echoing it (a password); nil at end of input.
    public var readSecret: () throws -> String? = { try TerminalDevice.readLineUnechoed() }

    public init(environment: [String: String], now: @escaping () -> Date, writeOutput: @escaping ([UInt8]) throws -> Void,
                writeError: @escaping (String) -> Void, readInput: @escaping () throws -> [UInt8], inputIsTerminal: Bool) {
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
            readInput: {
                var bytes: [UInt8] = []
                while true {
                    let chunk = try FileDescriptor.standardInput.read(upTo: 1 << 16)
                    if chunk.isEmpty { return bytes }
                    bytes += chunk
                }
            },
            inputIsTerminal: FileDescriptor.standardInput.isTerminal)
    }

    /// Writes a line of text to standard output.
    func print(_ line: String) throws { try writeOutput(Array((line + "\n").utf8)) }
}
