import Foundation

/// The attributes our comment markup parser puts on an `AttributedString`.
///
/// Our own scope because Linux Foundation has no `InlinePresentationIntent` or
/// `PresentationIntent`; the renderer, composer and picker read these keys.
public struct CommentAttributes: AttributeScope {
    /// Emphasis (`*x*`).
    public let emphasis: EmphasisAttribute
    /// Strong emphasis (`**x**`).
    public let strong: StrongAttribute
    /// Strikethrough (`~~x~~`).
    public let strikethrough: StrikethroughAttribute
    /// Code span or code block text.
    public let code: CodeAttribute
    /// Link target.
    public let link: LinkAttribute
    /// Mentioned user id.
    public let mention: MentionAttribute
    /// Spoiler number.
    public let spoiler: SpoilerAttribute
    /// Ruby reading over the base text.
    public let ruby: RubyAttribute
    /// Enclosing block.
    public let block: BlockAttribute

    /// `*text*` or `_text_`.
    public enum EmphasisAttribute: AttributedStringKey {
        public typealias Value = Bool
        public static let name = "commentEmphasis"
    }

    /// `**text**` or `__text__`.
    public enum StrongAttribute: AttributedStringKey {
        public typealias Value = Bool
        public static let name = "commentStrong"
    }

    /// `~~text~~` (GFM).
    public enum StrikethroughAttribute: AttributedStringKey {
        public typealias Value = Bool
        public static let name = "commentStrikethrough"
    }

    /// A code span or the text of a fenced code block.
    public enum CodeAttribute: AttributedStringKey {
        public typealias Value = Bool
        public static let name = "commentCode"
    }

    /// The target URL of a link or autolink, as written (after escapes and entities).
    public enum LinkAttribute: AttributedStringKey {
        public typealias Value = String
        public static let name = "commentLink"
        // Typing right after a link must not silently extend its target.
        public static let inheritedByAddedText = false
    }

    /// The user id of an `@handle` mention of a known user.
    public enum MentionAttribute: AttributedStringKey {
        public typealias Value = String
        public static let name = "commentMention"
        // A mention is atomic: typing after it does not extend it, editing inside removes it.
        public static let inheritedByAddedText = false
        public static let invalidationConditions: Set<AttributedString.AttributeInvalidationCondition>? = [.textChanged]
    }

    /// `||text||`: hidden until revealed. The value numbers the spoilers of a comment, so two
    /// adjacent spoilers are revealed separately.
    public enum SpoilerAttribute: AttributedStringKey {
        public typealias Value = Int
        public static let name = "commentSpoiler"
    }

    /// `{base|reading}`: the base text's runs carry the reading shown above them.
    public enum RubyAttribute: AttributedStringKey {
        public typealias Value = RubyAnnotation
        public static let name = "commentRuby"
        // Typing right after a base must not make the new text part of its annotation.
        public static let inheritedByAddedText = false
    }

    /// The block (paragraph, code block, list item; quote depth) the text belongs to.
    public enum BlockAttribute: AttributedStringKey {
        public typealias Value = MarkupBlock
        public static let name = "commentBlock"
    }
}

extension AttributeScopes {
    /// The comment markup attributes, for `\.comment.strong`-style key paths.
    public var comment: CommentAttributes.Type { CommentAttributes.self }
}

extension AttributeDynamicLookup {
    /// Dynamic member lookup for `CommentAttributes`, so `run.strong` works.
    public subscript<T: AttributedStringKey>(dynamicMember keyPath: KeyPath<CommentAttributes, T>) -> T {
        self[T.self]
    }
}
