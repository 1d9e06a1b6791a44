import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ThreadModel

/// Opens a URL in the user's browser: `$BROWSER` (each of its `:`-separated commands in turn),
/// else `xdg-open`; the URL is one argument, never given to a shell.
enum LinkOpener {
    /// The program that would open links, found on `PATH`; nil when there is none.
    static func program(environment: [String: String]) -> String? {
        let candidates = (environment["BROWSER"] ?? "").split(separator: ":").map(String.init) + ["xdg-open"]
        let path = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        for candidate in candidates where !candidate.isEmpty {
            if candidate.contains("/") {
                if access(candidate, X_OK) == 0 { return candidate }
                continue
            }
            for directory in path where access(directory + "/" + candidate, X_OK) == 0 {
                return directory + "/" + candidate
            }
        }
        return nil
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
    /// reap) and may outlive us; program and URL reach it as `$0` and `$1`, never as code.
    static func open(_ url: String, environment: [String: String]) -> Bool {
        guard isSafeToOpen(url), let program = program(environment: environment) else { return false }
        let environ = environment.map { "\($0.key)=\($0.value)" }
        let script = #""$0" "$1" </dev/null >/dev/null 2>&1 &"#
        guard let shell = try? ChildProcess.spawn(path: "/bin/sh", arguments: ["sh", "-c", script, program, url],
                                                  environment: environ, standardError: nil) else { return false }
        // The shell exits at once; retry a wait a signal interrupted.
        var ended: ChildProcess.Termination?
        repeat {
            do { ended = try shell.wait() } catch { break }
        } while ended == nil
        return true
    }
}
