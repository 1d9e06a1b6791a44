import Foundation

/// One run of a Python peer (matrix-nio, mautrix): its program in the venv's interpreter, the
/// request as JSON on stdin, one JSON result per step on stdout. A step that failed carries
/// `error`; the run then throws, with the end of what the peer wrote to stderr.
struct PythonPeerRun {
    /// The peer's name in errors ("matrix-nio peer").
    let name: String
    let python: URL
    let script: String

    func results(for request: [String: Any]) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        // Read stderr beside stdout: a chatty peer filling one pipe must not stall the other.
        let complaints = PeerOutput(errors.fileHandleForReading)
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complaint = complaints.text()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let results = try? JSONSerialization.jsonObject(with: printed) as? [[String: Any]] else {
            throw SynapseFixtureError("\(name) failed (\(process.terminationStatus)): \(String(decoding: printed, as: UTF8.self)) \(complaint.suffix(3000))")
        }
        if let failed = results.first(where: { $0["error"] is String }) {
            throw SynapseFixtureError("\(name): \(failed["error"] ?? "") \(complaint.suffix(3000))")
        }
        return results
    }
}

/// A pipe read to its end on a thread of its own.
private final class PeerOutput: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func text() -> String {
        done.wait()
        return String(decoding: data, as: UTF8.self)
    }
}
