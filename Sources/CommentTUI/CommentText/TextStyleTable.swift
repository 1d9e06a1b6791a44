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
    /// The index of each style in `styles`.
    private var indices: [TextRunStyle: Int] = [:]
    /// Whether any style is the base of a ruby annotation (a line without any skips `RubyPlacement`).
    private(set) var hasRuby = false

    init() {}

    /// The index of `style`, added if new.
    func index(of style: TextRunStyle) -> Int {
        if let known = indices[style] { return known }
        let index = styles.count
        styles.append(style)
        indices[style] = index
        if style.ruby != nil { hasRuby = true }
        return index
    }

    subscript(index: Int) -> TextRunStyle { styles[index] }

    /// Every style is stored once and its index names it; `hasRuby` says whether one is a base.
    func _checkInvariants() {
        precondition(styles.count == indices.count, "each style is stored once")
        for (index, style) in styles.enumerated() {
            precondition(indices[style] == index, "a style's index names it")
        }
        precondition(hasRuby == styles.contains { $0.ruby != nil }, "hasRuby says whether a style is a ruby base")
    }
}
