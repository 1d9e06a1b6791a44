import Foundation
import ThreadModel

/// Asks the terminal, before the screen is taken, which emoji clusters it draws whole: each
/// class's sample is written after a carriage return and the cursor position asked for (CSI 6n);
/// an advance of two columns means one glyph. A terminal that reports grapheme clustering
/// (DECRQM 2027 set, or reset and settable: the client then sets it) draws them all whole. No answer within the timeout: every class is
/// substituted, as before. Answers are cached per terminal for the next start.
public enum TerminalGraphemeProbe {
    /// `COMMENT_TUI_GRAPHEMES`: `substitute`, `intact` or `probe` (the default).
    public static let variable = "COMMENT_TUI_GRAPHEMES"
    /// How long the terminal has to answer every query.
    static let timeout = 0.25

    /// The policy for the terminal on `input`/`output`: the variable's, else the cached one for
    /// this terminal, else a probe's (then cached).
    public static func policy(environment: [String: String], input: FileDescriptor = .standardInput,
                              output: FileDescriptor = .standardOutput) -> GraphemePolicy {
        switch environment[variable] {
        case "substitute"?: return .substitute
        case "intact"?: return .allIntact
        default: break
        }
        let cache = GraphemePolicyCache(environment: environment)
        if let known = cache?.policy() { return known }
        guard let answered = TerminalDevice.withQuietInput(input, { probe(input: input, output: output) }) ?? nil else {
            return .substitute
        }
        cache?.save(answered)
        return answered
    }

    /// Writes the samples and queries, reads the answers; nil when the terminal did not answer.
    static func probe(input: FileDescriptor, output: FileDescriptor) -> GraphemePolicy? {
        let classes = GraphemePolicy.ClusterClass.allCases
        var query = "\u{1B}[?2027$p"
        for kind in classes { query += "\r" + kind.sample + "\u{1B}[6n" }
        query += "\r\u{1B}[2K"
        guard (try? output.writeAll(Array(query.utf8))) != nil else { return nil }
        var bytes: [UInt8] = []
        let deadline = MonotonicClock.now() + timeout
        while GraphemeProbeAnswers(bytes).columns.count < classes.count {
            let left = deadline - MonotonicClock.now()
            guard left > 0, let ready = try? Poll.readable([input], timeout: left), !ready.isEmpty,
                  let chunk = try? input.read(upTo: 256), !chunk.isEmpty else { break }
            bytes += chunk
        }
        return GraphemeProbeAnswers(bytes).policy(for: classes)
    }
}

/// The terminal's answers to the probe: cursor positions (`ESC [ row ; column R`) in order, and
/// DECRQM's for mode 2027 (`ESC [ ? 2027 ; Ps $ y`).
struct GraphemeProbeAnswers {
    /// The column (1-based) of each cursor position report, in order.
    private(set) var columns: [Int] = []
    /// The grapheme clustering mode's state: 1 set, 2 reset, 3 always set, 0 or 4 not there;
    /// nil unanswered.
    private(set) var graphemeMode: Int?

    init(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var rest = Substring(text)
        while let escape = rest.firstIndex(of: "\u{1B}") {
            rest = rest[rest.index(after: escape)...]
            guard rest.first == "[" else { continue }
            let body = rest.dropFirst().prefix { $0.isNumber || $0 == ";" || $0 == "?" || $0 == "$" }
            let final = rest.dropFirst(1 + body.count).first
            if final == "R", !body.hasPrefix("?") {
                let parts = body.split(separator: ";")
                if parts.count == 2, let column = Int(parts[1]) { columns.append(column) }
            } else if final == "y", body.hasPrefix("?2027;"), body.hasSuffix("$") {
                graphemeMode = Int(body.dropFirst(6).dropLast())
            }
        }
    }

    /// The classes drawn whole: all with mode 2027 set (or reset, to be set), else those whose
    /// sample moved the cursor two columns; nil when a position report is missing (the terminal
    /// did not answer).
    func policy(for classes: [GraphemePolicy.ClusterClass]) -> GraphemePolicy? {
        switch graphemeMode {
        case 1?, 3?: return .allIntact
        case 2?: return GraphemePolicy(intact: GraphemePolicy.allIntact.intact, setsClusteringMode: true)
        default: break
        }
        guard columns.count == classes.count else { return nil }
        return GraphemePolicy(intact: Set(zip(classes, columns).filter { $0.1 - 1 == 2 }.map(\.0)))
    }
}

/// The probe's answers kept per terminal (`TERM`, `TERM_PROGRAM` and its version) in
/// `$XDG_CACHE_HOME/comment-tui/graphemes.json`, so a start after the first asks nothing.
struct GraphemePolicyCache {
    let path: String
    let key: String

    init?(environment: [String: String]) {
        guard let base = environment["XDG_CACHE_HOME"].map({ $0 + "/comment-tui" })
                ?? environment["HOME"].map({ $0 + "/.cache/comment-tui" }) else { return nil }
        path = base + "/graphemes.json"
        key = [environment["TERM"], environment["TERM_PROGRAM"], environment["TERM_PROGRAM_VERSION"]]
            .map { $0 ?? "" }.joined(separator: "|")
    }

    private func entries() -> [String: [String]] {
        guard let data = FileManager.default.contents(atPath: path),
              let entries = try? JSONDecoder().decode([String: [String]].self, from: data) else { return [:] }
        return entries
    }

    /// Kept with the classes when the client sets mode 2027 itself.
    private static let setsModeEntry = "sets-mode-2027"

    func policy() -> GraphemePolicy? {
        entries()[key].map {
            GraphemePolicy(intact: Set($0.compactMap(GraphemePolicy.ClusterClass.init(rawValue:))),
                           setsClusteringMode: $0.contains(Self.setsModeEntry))
        }
    }

    func save(_ policy: GraphemePolicy) {
        var all = entries()
        all[key] = policy.intact.map(\.rawValue).sorted() + (policy.setsClusteringMode ? [Self.setsModeEntry] : [])
        guard let data = try? JSONEncoder().encode(all) else { return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileSystem.replace(path, with: Array(data), synchronized: false)
    }
}
