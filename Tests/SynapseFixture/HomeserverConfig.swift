import Foundation

/// The files of a throwaway homeserver: `homeserver.yaml`, its log config and a signing key
/// (and, for a federating server, a self-signed TLS certificate and key).
struct HomeserverConfig {
    let serverName: String
    let port: Int
    let directory: URL
    /// The TLS federation listener's port on 127.0.0.1; nil: federation is off.
    var federationPort: Int?
    /// Limits kept, by key, instead of the lifted ones.
    var rateLimitOverrides: [String: String] = [:]
    /// Top-level settings added as they are (YAML lines), for a test that needs the server set
    /// up otherwise (`encryption_enabled_by_default_for_room_type: all`).
    var extraSettings: [String] = []

    var configFile: URL { directory.appendingPathComponent("homeserver.yaml") }
    var logConfigFile: URL { directory.appendingPathComponent("log.yaml") }
    /// Synapse's own log (WARNING and above).
    var homeserverLog: URL { directory.appendingPathComponent("homeserver.log") }
    /// The process's stdout and stderr (Python tracebacks before logging is set up).
    var processLog: URL { directory.appendingPathComponent("process.log") }
    var signingKeyFile: URL { directory.appendingPathComponent("signing.key") }
    /// The registration of an application service owning `@import_…` users (for imports).
    var appServiceFile: URL { directory.appendingPathComponent("appservice.yaml") }
    /// The application service's token (`as_token`), fixed by the directory so restarts keep it.
    var appServiceToken: String { "fixture-as-" + directory.lastPathComponent }
    /// The federation listener's self-signed certificate (PEM), made by `FederationCertificate`.
    var tlsCertificateFile: URL { directory.appendingPathComponent("federation.crt") }
    /// The private key of `tlsCertificateFile` (PEM, unencrypted).
    var tlsPrivateKeyFile: URL { directory.appendingPathComponent("federation.key") }

    /// Every rate limit Synapse 1.163 reads, with its nested keys (from synapse/config/ratelimiting.py).
    static let rateLimitKeys: [(key: String, children: [String])] = [
        ("rc_message", []), ("rc_registration", []), ("rc_registration_token_validity", []),
        ("rc_login", ["address", "account", "failed_attempts"]), ("rc_admin_redaction", []),
        ("rc_joins", ["local", "remote"]), ("rc_joins_per_room", []), ("rc_key_requests", []),
        ("rc_3pid_validation", []), ("rc_invites", ["per_room", "per_user", "per_issuer"]),
        ("rc_third_party_invite", []), ("rc_media_create", []), ("rc_presence", ["per_user"]),
        ("rc_delayed_event_mgmt", []), ("rc_room_creation", []), ("rc_reports", []),
        ("rc_user_directory", []), ("rc_profile", []),
    ]

    /// Writes the config, the log config and a fresh ed25519 signing key into `directory`,
    /// once: a restart reuses them, so secrets and keys stay the same.
    func writeUnlessPresent() throws {
        guard !FileManager.default.fileExists(atPath: configFile.path) else { return }
        let dir = directory.path
        try logConfig.write(to: logConfigFile, atomically: true, encoding: .utf8)
        try homeserverYAML(dir).write(to: configFile, atomically: true, encoding: .utf8)
        try Self.signingKey().write(to: signingKeyFile, atomically: true, encoding: .utf8)
        try appServiceRegistration.write(to: appServiceFile, atomically: true, encoding: .utf8)
    }

    /// No URL: the service is never sent transactions, it only acts as its users.
    private var appServiceRegistration: String {
        """
        id: comment-tui-import
        url: null
        as_token: "\(appServiceToken)"
        hs_token: "fixture-hs-\(UUID().uuidString)"
        sender_localpart: import-bot
        rate_limited: false
        namespaces:
          users:
            - exclusive: true
              regex: "@import_.*"
          aliases: []
          rooms: []

        """
    }

    /// A signing key in signedjson's file format (`ed25519 KEYID SEED` with unpadded base64),
    /// written directly: `--generate-keys` would cost a 1.7 s Python start.
    static func signingKey() -> String {
        var generator = SystemRandomNumberGenerator()
        let seed = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let base64 = Data(seed).base64EncodedString().replacingOccurrences(of: "=", with: "")
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        let keyID = "a_" + String((0..<4).map { _ in letters.randomElement(using: &generator)! })
        return "ed25519 \(keyID) \(base64)\n"
    }

    private var logConfig: String {
        """
        version: 1
        formatters:
          precise:
            format: '%(asctime)s - %(name)s - %(lineno)d - %(levelname)s - %(message)s'
        handlers:
          file:
            class: logging.FileHandler
            formatter: precise
            filename: \(homeserverLog.path)
        root:
          level: WARNING
          handlers: [file]
        disable_existing_loggers: false

        """
    }

    private var rateLimits: String {
        let unlimited = "{per_second: 1000, burst_count: 1000}"
        return Self.rateLimitKeys.map { entry in
            if let kept = rateLimitOverrides[entry.key] { return "\(entry.key): \(kept)" }
            return entry.children.isEmpty
                ? "\(entry.key): \(unlimited)"
                : "\(entry.key):\n" + entry.children.map { "  \($0): \(unlimited)" }.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// A second listener, TLS-only, serving federation (and `/_matrix/key/v2`) to the other servers.
    private func federationListener(port: Int) -> String {
        """
          - port: \(port)
            bind_addresses: ['127.0.0.1']
            type: http
            tls: true
            x_forwarded: false
            resources:
              - names: [federation]
                compress: false
        """
    }

    /// Federation with any server, on loopback, with self-signed certificates and no notary:
    /// - `ip_range_blacklist: []`: by default Synapse refuses to send to private addresses, 127.0.0.1 included
    ///   (`ip_range_whitelist` would do as well; `federation_ip_range_blacklist` is only a fallback name);
    /// - `federation_verify_certificates: false`: the peers' certificates are self-signed;
    /// - short retry intervals: a peer that was down (restarted) is tried again after 1–5 s, not 10 min;
    /// - `rc_federation` lifted: by default more than 10 requests a second from one server are delayed.
    private var federationSettings: String {
        """
        tls_certificate_path: \(tlsCertificateFile.path)
        tls_private_key_path: \(tlsPrivateKeyFile.path)
        federation_verify_certificates: false
        ip_range_blacklist: []
        federation:
          client_timeout: 20s
          max_short_retry_delay: 500
          max_long_retry_delay: 2s
          destination_min_retry_interval: 1s
          destination_max_retry_interval: 5s
        rc_federation: {window_size: 1000, sleep_limit: 1000, sleep_delay: 1, reject_limit: 1000, concurrent: 100}
        """
    }

    /// `bcrypt_rounds: 4`: each registration and password login hashes once, at Synapse's
    /// default cost of 12 a quarter to half a second of its CPU; the suite makes about a thousand.
    private func homeserverYAML(_ dir: String) -> String {
        """
        server_name: "\(serverName)"
        pid_file: \(dir)/homeserver.pid
        listeners:
          - port: \(port)
            bind_addresses: ['127.0.0.1']
            type: http
            tls: false
            x_forwarded: false
            resources:
              - names: [client]
                compress: false
        \(federationPort.map(federationListener) ?? "")
        database:
          name: sqlite3
          args:
            database: \(dir)/homeserver.db
        log_config: \(logConfigFile.path)
        media_store_path: \(dir)/media
        signing_key_path: \(signingKeyFile.path)
        report_stats: false
        app_service_config_files: [\(appServiceFile.path)]
        enable_registration: true
        enable_registration_without_verification: true
        bcrypt_rounds: 4
        presence:
          enabled: false
        \(federationPort == nil ? "federation_domain_whitelist: []" : federationSettings)
        trusted_key_servers: []
        suppress_key_server_warning: true
        room_list_publication_rules:
          - action: allow
        macaroon_secret_key: "fixture-macaroon-\(UUID().uuidString)"
        registration_shared_secret: "fixture-registration-\(UUID().uuidString)"
        form_secret: "fixture-form-\(UUID().uuidString)"
        \(rateLimits)
        \(extraSettings.joined(separator: "\n"))

        """
    }
}
