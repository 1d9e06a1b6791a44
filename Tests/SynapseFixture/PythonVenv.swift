import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Python virtualenv of the tests' under `<package root>/.synapse`, holding one pinned PyPI
/// release (and what it needs), made on first use and kept.
struct PythonVenv: Sendable {
    /// The pinned Synapse the tests run, at `<package root>/.synapse/venv`.
    static let synapse = PythonVenv(name: "venv", requirement: "matrix-synapse==1.163.2")
    /// matrix-nio, the Python client the tests' third-party peer is (`MatrixNioPeer`), in a venv
    /// of its own (its pins are not Synapse's), with its end-to-end encryption (vodozemac).
    static let nio = PythonVenv(name: "nio-venv", requirement: "matrix-nio[e2e]==0.26.0")
    /// mautrix-python, the strict Element-like peer (`MautrixPeer`): it shares room keys only with
    /// cross-signed devices and can set up secret storage and cross-signing. Its python-olm builds
    /// against Debian's `libolm-dev`.
    static let mautrix = PythonVenv(name: "mautrix-venv", requirement: "mautrix[encryption]==0.21.1")

    /// Its folder's name in `.synapse`.
    let name: String
    /// The exact PyPI release it holds.
    let requirement: String

    /// `<package root>/.synapse`, found from this file's path (Tests/SynapseFixture/…).
    static let stateDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".synapse")
    var stateDirectory: URL { Self.stateDirectory }
    var venv: URL { stateDirectory.appendingPathComponent(name) }
    var python: URL { venv.appendingPathComponent("bin/python") }
    /// Written only after a successful install; holds `requirement`.
    var marker: URL { venv.appendingPathComponent("fixture-installed") }
    var installLog: URL { stateDirectory.appendingPathComponent(name == "venv" ? "install.log" : "install-\(name).log") }
    var lockFile: URL { stateDirectory.appendingPathComponent("provision.lock") }

    /// Whether the venv was completely installed with the pinned version.
    var isComplete: Bool {
        guard let data = FileManager.default.contents(atPath: marker.path) else { return false }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == requirement
            && FileManager.default.isExecutableFile(atPath: python.path)
    }

    /// Creates or repairs the venv under an exclusive flock; returns the venv's python.
    func provision() throws -> URL {
        if isComplete { return python }
        do {
            try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
        } catch {
            throw SynapseFixtureError("creating \(stateDirectory.path) failed: \(error)")
        }
        let lock = try acquireLock()
        defer { flock(lock, LOCK_UN); close(lock) }
        // Another process may have finished while this one waited.
        if isComplete { return python }
        if FileManager.default.fileExists(atPath: venv.path) {
            do { try FileManager.default.removeItem(at: venv) } catch {
                throw SynapseFixtureError("removing the partial venv \(venv.path) failed: \(error)")
            }
        }
        try runLogged(["/usr/bin/env", "python3", "-m", "venv", venv.path], step: "python3 -m venv")
        try runLogged(
            [python.path, "-m", "pip", "install", "--disable-pip-version-check", "--no-input", requirement],
            step: "pip install \(requirement)"
        )
        do { try (requirement + "\n").write(to: marker, atomically: true, encoding: .utf8) } catch {
            throw SynapseFixtureError("writing the install marker \(marker.path) failed: \(error)")
        }
        return python
    }

    /// Opens the lock file and takes an exclusive flock, waiting at most 15 minutes.
    private func acquireLock() throws -> Int32 {
        let fd = open(lockFile.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SynapseFixtureError("opening the lock \(lockFile.path) failed: errno \(errno)") }
        let deadline = Date().addingTimeInterval(15 * 60)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, Date() < deadline else {
                close(fd)
                throw SynapseFixtureError("waiting for the provisioning lock \(lockFile.path) failed: errno \(errno)")
            }
            usleep(100_000)
        }
        return fd
    }

    /// Runs a command with stdout and stderr appended to the install log; throws naming `step`.
    private func runLogged(_ command: [String], step: String) throws {
        _ = FileManager.default.createFile(atPath: installLog.path, contents: Data("$ \(command.joined(separator: " "))\n".utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = stateDirectory
        do {
            let log = try FileHandle(forWritingTo: installLog)
            log.seekToEndOfFile()
            process.standardOutput = log
            process.standardError = log
            process.standardInput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try? log.close()
        } catch {
            throw SynapseFixtureError("\(step) failed: could not launch: \(error)")
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw SynapseFixtureError(
                "\(step) failed: exit \(process.terminationStatus)\n\(tailOfFile(installLog, lineCount: 20))"
            )
        }
    }
}
