import Foundation
import ThreadModel

/// The probe's answers kept per terminal (`TERM`, `TERM_PROGRAM` and its version) in
/// `$XDG_CACHE_HOME/comment-tui/graphemes.json`, so a start after the first asks nothing and
/// draws its first frame with the terminal's policy. The file carries the version of what the
/// probe measures: a file from another version (one that kept a kind of cluster, not a shape)
/// is ignored, so that terminal is measured again and the file rewritten.
struct GraphemePolicyCache: Sendable {
    /// What the probe measures: 2 keeps shapes (1 kept kinds, with no version in the file).
    static let version = 2

    /// The client's cache folder (a `PrivateDirectory`) the file is in.
    let directory: String
    let key: String
    static let name = "graphemes.json"

    var path: String { "\(directory)/\(Self.name)" }

    init?(environment: [String: String]) {
        guard let base = environment["XDG_CACHE_HOME"].map({ $0 + "/comment-tui" })
                ?? environment["HOME"].map({ $0 + "/.cache/comment-tui" }) else { return nil }
        directory = base
        key = [environment["TERM"], environment["TERM_PROGRAM"], environment["TERM_PROGRAM_VERSION"]]
            .map { $0 ?? "" }.joined(separator: "|")
    }

    private struct Contents: Codable {
        var version: Int
        var terminals: [String: Entry]
    }

    /// One terminal's answer: the shapes it draws whole, by name (`joiner+skinTone`).
    private struct Entry: Codable {
        var whole: [String]
        var wholeEverywhere: Bool
        var setsClusteringMode: Bool
    }

    /// Every terminal's entry, or none when the file is missing, unreadable or of another version.
    private func entries() -> [String: Entry] {
        guard FileManager.default.fileExists(atPath: directory),
              let bytes = try? PrivateDirectory(directory).read(Self.name),
              let contents = try? JSONDecoder().decode(Contents.self, from: Data(bytes)),
              contents.version == Self.version else { return [:] }
        return contents.terminals
    }

    /// This terminal's policy; nil when it was never measured (with this version).
    func policy() -> GraphemePolicy? {
        entries()[key].map {
            GraphemePolicy(intact: Set($0.whole.compactMap(ClusterShape.init(name:))), wholeEverywhere: $0.wholeEverywhere,
                           setsClusteringMode: $0.setsClusteringMode)
        }
    }

    func save(_ policy: GraphemePolicy) {
        var all = entries()
        all[key] = Entry(whole: policy.intact.map(\.description).sorted(), wholeEverywhere: policy.wholeEverywhere,
                         setsClusteringMode: policy.setsClusteringMode)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Contents(version: Self.version, terminals: all)) else { return }
        try? PrivateDirectory(directory).replace(Self.name, with: Array(data), synchronized: false)
    }
}
