import Foundation

/// The style of a run of parsed comment text: what `CommentAttributes` say, as a plain value.
///
/// The parser's output (`MarkupRuns`) carries these rather than `AttributeContainer`s, whose
/// every read and comparison goes through boxed values: a run's style is built, compared and
/// read many times per comment. `attributes` makes the container where an API needs one.
public struct MarkupStyle: Hashable, Sendable {
    /// Emphasis (`*x*`).
    public var emphasis = false
    /// Strong emphasis (`**x**`).
    public var strong = false
    /// Strikethrough (`~~x~~`).
    public var strikethrough = false
    /// Code span or code block text.
    public var code = false
    /// The enclosing block; nil on the `\n` between blocks.
    public var block: MarkupBlock?
    /// Link target.
    public var link: String?
    /// Mentioned user id.
    public var mention: String?
    /// Spoiler number.
    public var spoiler: Int?
    /// Ruby reading over the base text.
    public var ruby: RubyAnnotation?

    /// No style: the `\n` between blocks.
    public init() {}

    /// The style `attributes` give (keys outside `CommentAttributes` are left out).
    public init(_ attributes: AttributeContainer) {
        emphasis = attributes[CommentAttributes.EmphasisAttribute.self] ?? false
        strong = attributes[CommentAttributes.StrongAttribute.self] ?? false
        strikethrough = attributes[CommentAttributes.StrikethroughAttribute.self] ?? false
        code = attributes[CommentAttributes.CodeAttribute.self] ?? false
        block = attributes[CommentAttributes.BlockAttribute.self]
        link = attributes[CommentAttributes.LinkAttribute.self]
        mention = attributes[CommentAttributes.MentionAttribute.self]
        spoiler = attributes[CommentAttributes.SpoilerAttribute.self]
        ruby = attributes[CommentAttributes.RubyAttribute.self]
    }

    /// The same style as `CommentAttributes` (a flag that is off is absent, not `false`).
    public var attributes: AttributeContainer {
        var container = AttributeContainer()
        if emphasis { container[CommentAttributes.EmphasisAttribute.self] = true }
        if strong { container[CommentAttributes.StrongAttribute.self] = true }
        if strikethrough { container[CommentAttributes.StrikethroughAttribute.self] = true }
        if code { container[CommentAttributes.CodeAttribute.self] = true }
        if let block { container[CommentAttributes.BlockAttribute.self] = block }
        if let link { container[CommentAttributes.LinkAttribute.self] = link }
        if let mention { container[CommentAttributes.MentionAttribute.self] = mention }
        if let spoiler { container[CommentAttributes.SpoilerAttribute.self] = spoiler }
        if let ruby { container[CommentAttributes.RubyAttribute.self] = ruby }
        return container
    }
}
