import Foundation

/// What the layout shows of a link's target next to its text.
enum LinkHost {
    /// Whether the text already shows the target (an autolink, or text that is the URL).
    static func textShowsTarget(_ text: String, url: String) -> Bool {
        let bare = { (s: String) -> String in
            var s = s.lowercased()
            for scheme in ["https://", "http://", "mailto:"] where s.hasPrefix(scheme) { s.removeFirst(scheme.count) }
            while s.hasSuffix("/") { s.removeLast() }
            return s
        }
        return bare(text) == bare(url)
    }

    /// The host of a URL (`example.com`), or the URL itself, shortened, when it has none.
    static func host(of url: String) -> String {
        if let host = URLComponents(string: url)?.host, !host.isEmpty {
            return host.hasPrefix("www.") ? String(host.dropFirst(4)) : host
        }
        return url.count > 40 ? String(url.prefix(39)) + "…" : url
    }
}
