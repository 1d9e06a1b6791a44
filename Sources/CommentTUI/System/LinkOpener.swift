import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

/// Opens a URL in the user's browser: `$BROWSER` (each of its `:`-separated commands in turn),
/// else `xdg-open`; the URL is one argument, never given to a shell.
///
/// An entry may carry arguments and `%s` (the convention `$BROWSER` has had since 2001, as
/// Python's `webbrowser` and `man` read it): `firefox --new-tab %s` runs firefox with the
/// URL in place of `%s` (`%%` is a `%`); an entry without `%s` gets the URL as its last argument.
/// Entries are split at spaces, never parsed by a shell.
enum LinkOpener {
    /// The command that would open `url`: the first entry whose program is found on `PATH`
    /// (the program's full path first); nil when there is none.
    static func command(for url: String, environment: [String: String]) -> [String]? {
        let entries = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init) + ["xdg-open"]
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for entry in entries {
            var words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard let program = words.first, let found = find(program, in: path) else { continue }
            words.removeFirst()
            let arguments = words.map { substitute(url, into: $0) }
            return [found] + arguments.map(\.text) + (arguments.contains(where: \.usedURL) ? [] : [url])
        }
        return nil
    }

    /// `word` with `%s` replaced by `url` and `%%` by `%`; whether the URL went in.
    private static func substitute(_ url: String, into word: String) -> (text: String, usedURL: Bool) {
        var text = ""
        var usedURL = false
        var characters = word.makeIterator()
        while let character = characters.next() {
            guard character == "%" else { text.append(character); continue }
            switch characters.next() {
            case "s"?: text += url; usedURL = true
            case "%"?: text += "%"
            case let other?: text += "%" + String(other)
            case nil: text += "%"
            }
        }
        return (text, usedURL)
    }

    /// A program's full path: as given when it names a path, else the first on `PATH`.
    private static func find(_ program: String, in path: [String]) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        return path.lazy.map { $0 + "/" + program }.first { access($0, X_OK) == 0 }
    }

    /// Whether a link target may go to a browser: an absolute `http`, `https`, `mailto` or `ftp`
    /// URL. Anything else (`file:`, `javascript:`, a relative path, a target that a browser
    /// would read as a command-line option such as `--gpu-launcher=…`) is only shown.
    static func isSafeToOpen(_ url: String) -> Bool {
        guard !url.hasPrefix("-"), !url.contains(where: { $0.isWhitespace }),
              let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else { return false }
        switch scheme {
        case "http", "https", "ftp": return components.host?.isEmpty == false
        case "mailto": return !components.path.isEmpty
        default: return false
        }
    }

    /// Starts the browser on `url` in the background, detached from the terminal; false when
    /// none was found or the URL is not one to open (`isSafeToOpen`). A shell backgrounds it so the browser is not our child (no zombie to
    /// reap) and may outlive us; the command's words reach it as `$0` and `$@`, never as code.
    static func open(_ url: String, environment: [String: String]) -> Bool {
        guard isSafeToOpen(url), let command = command(for: url, environment: environment) else { return false }
        let environ = environment.map { "\($0.key)=\($0.value)" }
        let script = #""$0" "$@" </dev/null >/dev/null 2>&1 &"#
        guard let shell = try? ChildProcess.spawn(path: "/bin/sh", arguments: ["sh", "-c", script] + command,
                                                  environment: environ, standardError: nil) else { return false }
        // The shell exits at once; retry a wait a signal interrupted.
        var ended: ChildProcess.Termination?
        repeat {
            do { ended = try shell.wait() } catch { break }
        } while ended == nil
        return true
    }
}
