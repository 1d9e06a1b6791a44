/// What a homeserver's identifiers and tokens may look like before they are stored or sent.
///
/// A homeserver is hostile input: a token goes into an HTTP header and the accounts file, a
/// user id into file names, status bars and requests. Each is checked against the spec's
/// grammar (or, for opaque tokens, printable ASCII) and a length bound.
public enum MatrixGrammar {
    /// The longest access token taken: Synapse's are about 40 characters, OIDC ones a few hundred.
    public static let tokenLimit = 4096
    /// The longest device id taken.
    public static let deviceIDLimit = 255
    /// The spec's bound on a user id, in bytes.
    public static let userIDLimit = 255

    /// An access token: 1 to `tokenLimit` printable ASCII characters (no space, no CR/LF).
    public static func isAccessToken(_ token: String) -> Bool {
        isPrintableASCII(token, upTo: tokenLimit)
    }

    /// A device id: 1 to `deviceIDLimit` printable ASCII characters.
    public static func isDeviceID(_ id: String) -> Bool {
        isPrintableASCII(id, upTo: deviceIDLimit)
    }

    /// A user id: `@localpart:server_name`, at most 255 bytes; the localpart in the historical
    /// grammar (printable ASCII but `:`), the server name a host name, IPv4 or `[IPv6]` literal
    /// with an optional port.
    public static func isUserID(_ id: String) -> Bool {
        let bytes = Array(id.utf8)
        guard bytes.count <= userIDLimit, bytes.first == UInt8(ascii: "@"),
              let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 1 else { return false }
        let localpart = bytes[1..<colon]
        guard localpart.allSatisfy({ (0x21...0x7E).contains($0) }) else { return false }
        return isServerName(Array(bytes[(colon + 1)...]))
    }

    /// `host[:port]` where host is a DNS name, IPv4 address or bracketed IPv6 address.
    static func isServerName(_ bytes: [UInt8]) -> Bool {
        var host = bytes[...]
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let inner = host[(host.startIndex + 1)..<close]
            let ipv6 = Set("0123456789ABCDEFabcdef:.".utf8)
            guard (2...45).contains(inner.count), inner.allSatisfy(ipv6.contains) else { return false }
            host = host[(close + 1)...]
            return host.isEmpty || isPort(host)
        }
        if let colon = host.firstIndex(of: UInt8(ascii: ":")) {
            guard isPort(host[colon...]) else { return false }
            host = host[..<colon]
        }
        let dns = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-.".utf8)
        return (1...255).contains(host.count) && host.allSatisfy(dns.contains)
    }

    /// `:` and 1 to 5 digits.
    private static func isPort(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.first == UInt8(ascii: ":") && (2...6).contains(bytes.count) && bytes.dropFirst().allSatisfy { (0x30...0x39).contains($0) }
    }

    /// 1 to `limit` bytes, each printable ASCII other than space: safe in a header line and a file.
    private static func isPrintableASCII(_ text: String, upTo limit: Int) -> Bool {
        let bytes = text.utf8
        return !bytes.isEmpty && bytes.count <= limit && bytes.allSatisfy { (0x21...0x7E).contains($0) }
    }
}
