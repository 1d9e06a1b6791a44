import Foundation

/// A program run as a child with its output in a file, and the kernel's peak resident size of
/// that child alone (`ru_maxrss`).
///
/// The child is started by a small Python parent from the Synapse venv, not by the test
/// process: a child's peak counts its parent's resident size at the spawn (the memory is shared
/// until `exec`), and the test process's is large and varies. Bounded: a child still running
/// after `timeout` seconds, or holding more than `killAboveMiB`, is killed by its pid and
/// reported as such.
public struct PeakMemoryRun: Sendable {
    /// Its exit status, or nil when it was killed.
    public var status: Int32?
    /// Standard output and error together.
    public var output: String
    /// The child's peak resident set, in MiB.
    public var peakMiB: Double
    /// Seconds from start to end.
    public var seconds: Double
    /// Why it was killed, if it was.
    public var killedBecause: String?

    static let script = """
        import json, os, resource, signal, subprocess, sys, time
        output, stdin, kill_above, timeout = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
        arguments, environment = sys.argv[6:], dict(e.split("=", 1) for e in json.loads(sys.argv[5]))
        started = time.monotonic()
        with open(output, "wb") as out, open(stdin, "rb") as source:
            child = subprocess.Popen(arguments, stdin=source, stdout=out, stderr=out, env=environment)
        killed = None
        while child.poll() is None:
            try:
                with open("/proc/%d/status" % child.pid) as status:
                    rss = next((int(l.split()[1]) for l in status if l.startswith("VmRSS:")), 0) / 1024
            except OSError:
                rss = 0
            if time.monotonic() - started > timeout:
                killed = "still running after %g s" % timeout
            elif rss > kill_above:
                killed = "resident set reached %d MiB" % rss
            if killed:
                child.kill()
                child.wait()
                break
            time.sleep(0.02)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(json.dumps({"status": None if killed or child.returncode < 0 else child.returncode, "peak_kib": peak,
                          "seconds": time.monotonic() - started, "killed": killed}))
        """

    public init(path: String, arguments: [String], environment: [String], stdinPath: String = "/dev/null",
                timeout: Double = 60, killAboveMiB: Double = 1500) throws {
        let python = try PythonVenv.synapse.provision()
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("peak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let environmentJSON = String(decoding: try JSONSerialization.data(withJSONObject: environment), as: UTF8.self)
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.script, outputPath, stdinPath, String(killAboveMiB), String(timeout), environmentJSON, path] + arguments
        let report = Pipe()
        process.standardOutput = report
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = report.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let fields = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SynapseFixtureError("the peak memory runner said nothing readable: \(String(decoding: data, as: UTF8.self))")
        }
        status = (fields["status"] as? Int).map(Int32.init)
        peakMiB = Double(fields["peak_kib"] as? Int ?? 0) / 1024
        seconds = fields["seconds"] as? Double ?? 0
        killedBecause = fields["killed"] as? String
        output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }
}
