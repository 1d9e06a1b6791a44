import Foundation

/// A throwaway self-signed TLS certificate for a federation listener on 127.0.0.1.
///
/// Made with Python's `cryptography` from the Synapse venv (Synapse depends on it), so nothing
/// beyond the venv is needed. The peers do not verify it (`federation_verify_certificates: false`).
enum FederationCertificate {
    /// Writes a 2048-bit RSA key and a certificate for CN and IP SAN 127.0.0.1, valid for two
    /// days; argv: certificate path, key path. The certificate is written last, by rename, so its
    /// presence means both files are complete.
    static let script = """
        import datetime, ipaddress, os, sys
        from cryptography import x509
        from cryptography.x509.oid import NameOID
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import rsa
        certificate_path, key_path = sys.argv[1], sys.argv[2]
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
        now = datetime.datetime.now(datetime.timezone.utc)
        certificate = (
            x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(hours=1)).not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256())
        )
        with open(key_path, "wb") as f:
            f.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL,
                                      serialization.NoEncryption()))
        with open(certificate_path + ".part", "wb") as f:
            f.write(certificate.public_bytes(serialization.Encoding.PEM))
        os.rename(certificate_path + ".part", certificate_path)
        """

    /// Makes the certificate and key of `config` once; a restart reuses them. Waits at most 30 s.
    static func writeUnlessPresent(python: URL, config: HomeserverConfig) throws {
        let certificate = config.tlsCertificateFile
        guard !FileManager.default.fileExists(atPath: certificate.path) else { return }
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, certificate.path, config.tlsPrivateKeyFile.path]
        process.standardInput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        do { try process.run() } catch {
            throw SynapseFixtureError("making the federation certificate failed: could not launch \(python.path): \(error)")
        }
        guard finished.wait(timeout: .now() + 30) == .success else {
            process.terminate()
            throw SynapseFixtureError("making the federation certificate failed: no exit within 30 s")
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: certificate.path) else {
            throw SynapseFixtureError("making the federation certificate failed: exit \(process.terminationStatus)\n\(message)")
        }
    }
}
