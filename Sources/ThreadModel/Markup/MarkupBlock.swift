/// The block a run of comment text belongs to: its role, quote depth and position.
public struct MarkupBlock: Hashable, Sendable {
    /// What kind of block the text is in.
    public enum Role: Hashable, Sendable {
        /// Ordinary text; a `\n` inside it is a line break. One without text stands for an
        /// empty block quote (`>` alone).
        case paragraph
        /// A fenced code block, shown verbatim; `info` is the text after the opening fence.
        case codeBlock(info: String)
        /// One item of a list; `list` numbers the lists of a comment so neighbours stay apart.
        case listItem(ordered: Bool, number: Int, list: Int)
        /// An ATX heading (`# Title`), `level` 1 to 6.
        case heading(level: Int)
    }

    /// The block's role.
    public var role: Role
    /// How many block quotes (`>`) enclose the block.
    public var quoteDepth: Int
    /// The block's position in the comment, so two adjacent paragraphs remain two runs.
    public var index: Int
    /// How many of the enclosing quotes, outermost first, go on from the block before; the
    /// others start here (`> a` blank line `> b` is two quotes, `> a` `>` `> b` one).
    public var continuedQuotes: Int

    /// A block with the given role, quote depth and position.
    public init(role: Role, quoteDepth: Int, index: Int, continuedQuotes: Int = 0) {
        self.role = role
        self.quoteDepth = quoteDepth
        self.index = index
        self.continuedQuotes = continuedQuotes
    }
}
