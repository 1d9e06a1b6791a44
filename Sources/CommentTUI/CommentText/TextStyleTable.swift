/// The distinct styles of one layout, each stored once and named by its index.
///
/// Laid-out clusters carry an index into this table instead of a whole `TextRunStyle`: a style
/// holds strings (link, mention, ruby reading), and copying one with every character cost a
/// retain and a release of each, and a compare of all of them where runs are grouped. Equal
/// styles get the same index, so runs are grouped by comparing indices. A table is built by one
/// layout on one thread (`LogicalLines`, `LineWrapper`, `RubyPlacement` add to it) and only
/// grows, so an index handed out stays valid for the table's life.
final class TextStyleTable {
    /// The styles by index.
    private(set) var styles: [TextRunStyle] = []
    /// The index of each style in `styles`, kept once there are more than `scanned`: a comment
    /// has a handful, found sooner by comparing than by hashing.
    private var indices: [ExactStyle: Int] = [:]

    /// A style equal to another only when its strings are byte for byte the same: Strings
    /// compare canonically, and a link to `café` in NFD must not open the one in NFC.
    private struct ExactStyle: Hashable {
        var style: TextRunStyle

        static func == (a: ExactStyle, b: ExactStyle) -> Bool { TextStyleTable.same(a.style, b.style) }
        // Equal bytes are canonically equal, so the style's own hash agrees with `==` here.
        func hash(into hasher: inout Hasher) { hasher.combine(style) }
    }

    /// Whether two styles are equal, their strings byte for byte.
    static func same(_ a: TextRunStyle, _ b: TextRunStyle) -> Bool {
        a == b && sameBytes(a.link, b.link) && sameBytes(a.mention, b.mention) && sameBytes(a.ruby?.reading, b.ruby?.reading)
    }

    private static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return a.utf8.elementsEqual(b.utf8)
    }
    /// Up to this many styles are found by comparing each.
    static let scanned = 8
    /// Whether any style is the base of a ruby annotation (a line without any skips `RubyPlacement`).
    private(set) var hasRuby = false

    /// An empty table.
    init() {}

    /// The index of `style`, added if new.
    func index(of style: TextRunStyle) -> Int {
        if styles.count <= Self.scanned {
            if let known = styles.firstIndex(where: { Self.same($0, style) }) { return known }
        } else if let known = indices[ExactStyle(style: style)] {
            return known
        }
        let index = styles.count
        styles.append(style)
        if styles.count == Self.scanned + 1 {
            for (index, style) in styles.enumerated() { indices[ExactStyle(style: style)] = index }
        } else if styles.count > Self.scanned {
            indices[ExactStyle(style: style)] = index
        }
        if style.ruby != nil { hasRuby = true }
        return index
    }

    /// The style an index names.
    subscript(index: Int) -> TextRunStyle { styles[index] }

    /// Every style is stored once and its index names it; `hasRuby` says whether one is a base.
    func _checkInvariants() {
        precondition(Set(styles.map { ExactStyle(style: $0) }).count == styles.count, "each style is stored once")
        if styles.count > Self.scanned {
            precondition(styles.count == indices.count, "every style is indexed")
            for (index, style) in styles.enumerated() {
                precondition(indices[ExactStyle(style: style)] == index, "a style's index names it")
            }
        } else {
            precondition(indices.isEmpty, "a short table is scanned")
        }
        precondition(hasRuby == styles.contains { $0.ruby != nil }, "hasRuby says whether a style is a ruby base")
    }
}
