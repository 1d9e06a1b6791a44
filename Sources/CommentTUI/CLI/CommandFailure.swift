/// Why a verb stopped, and the exit status that says so.
public struct CommandFailure: Error, Equatable, Sendable {
    /// What went wrong, naming the file (and line) concerned.
    public var message: String
    /// The exit status: 2 for a usage error, 1 otherwise.
    public var status: Int32

    public init(_ message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    /// A mistake in the command line, with the verb's usage to show how to fix it.
    public static func usage(_ message: String, _ usage: String) -> CommandFailure {
        CommandFailure("\(message)\n\n\(usage)", status: 2)
    }
}
