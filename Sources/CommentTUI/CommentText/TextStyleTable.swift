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
    private var indices: [TextRunStyle: Int] = [:]
    /// Up to this many styles are found by comparing each.
    static let scanned = 8
    /// Whether any style is the base of a ruby annotation (a line without any skips `RubyPlacement`).
    private(set) var hasRuby = false

    init() {}

    /// The index of `style`, added if new.
    func index(of style: TextRunStyle) -> Int {
        if styles.count <= Self.scanned {
            if let known = styles.firstIndex(of: style) { return known }
        } else if let known = indices[style] {
            return known
        }
        let index = styles.count
        styles.append(style)
        if styles.count == Self.scanned + 1 {
            for (index, style) in styles.enumerated() { indices[style] = index }
        } else if styles.count > Self.scanned {
            indices[style] = index
        }
        if style.ruby != nil { hasRuby = true }
        return index
    }

    subscript(index: Int) -> TextRunStyle { styles[index] }

    /// Every style is stored once and its index names it; `hasRuby` says whether one is a base.
    func _checkInvariants() {
        precondition(Set(styles).count == styles.count, "each style is stored once")
        if styles.count > Self.scanned {
            precondition(styles.count == indices.count, "every style is indexed")
            for (index, style) in styles.enumerated() {
                precondition(indices[style] == index, "a style's index names it")
            }
        } else {
            precondition(indices.isEmpty, "a short table is scanned")
        }
        precondition(hasRuby == styles.contains { $0.ruby != nil }, "hasRuby says whether a style is a ruby base")
    }
}
