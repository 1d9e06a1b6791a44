/// Something wrong in a thread file, at a line (1-based).
public struct ThreadFileProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line number, counting from 1.
    public var line: Int
    /// What is wrong, and what was done about it.
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
