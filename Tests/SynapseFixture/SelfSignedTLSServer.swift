import Foundation

/// An https listener on 127.0.0.1 with a self-signed certificate, which a client that checks
/// certificates must refuse; past the handshake it answers every request with `/versions`.
///
/// Python's `ssl` in the Synapse venv serves it (the certificate comes from
/// `FederationCertificate`), so nothing beyond the venv is needed. It ends with `stop()`, and
/// by itself when its standard input closes (the test process went away).
public final class SelfSignedTLSServer: @unchecked Sendable {
    /// The port it listens on.
    public let port: Int
    /// `https://127.0.0.1:PORT`.
    public var baseURL: URL { URL(string: "https://127.0.0.1:\(port)")! }

    private let process: Process
    private let directory: URL
    private let input: Pipe

    static let script = """
        import os, socket, ssl, sys, threading
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        body = b'{"versions":["v1.11"]}'
        def serve(connection):
            try:
                connection.settimeout(10)
                tls = context.wrap_socket(connection, server_side=True)
                tls.recv(65536)
                tls.sendall(b"HTTP/1.1 200 OK\\r\\nContent-Type: application/json\\r\\nConnection: close\\r\\n"
                            + b"Content-Length: %d\\r\\n\\r\\n" % len(body) + body)
                tls.close()
            except Exception:
                connection.close()
        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """

    /// Makes a certificate and starts the listener; waits at most 30 s for its port.
    public init() throws {
        let python = try PythonVenv.synapse.provision()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let config = HomeserverConfig(serverName: "127.0.0.1", port: 0, directory: directory)
        try FederationCertificate.writeUnlessPresent(python: python, config: config)
        process = Process()
        process.executableURL = python
        process.arguments = ["-c", Self.script, config.tlsCertificateFile.path, config.tlsPrivateKeyFile.path]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let ready = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var line = ""
        DispatchQueue.global().async {
            line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
            ready.signal()
        }
        guard ready.wait(timeout: .now() + 30) == .success, let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw SynapseFixtureError("the TLS listener did not start within 30 s")
        }
        self.port = port
    }

    deinit { stop() }

    /// Ends the listener (by its pid) and removes its certificate.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }
}
