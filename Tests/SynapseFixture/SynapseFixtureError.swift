import Foundation

/// A failed step of provisioning, starting, stopping or talking to the test homeserver.
public struct SynapseFixtureError: Error, CustomStringConvertible, Sendable {
    /// The step that failed and why, with the relevant log tail.
    public let description: String

    /// An error whose message names the failed step.
    public init(_ description: String) {
        self.description = description
    }
}

/// Reads the last `lineCount` lines of a text file, or a note that it could not be read.
func tailOfFile(_ url: URL, lineCount: Int = 30) -> String {
    guard let data = FileManager.default.contents(atPath: url.path), !data.isEmpty else {
        return "(\(url.lastPathComponent) is empty or missing)"
    }
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    return lines.suffix(lineCount).joined(separator: "\n")
}
