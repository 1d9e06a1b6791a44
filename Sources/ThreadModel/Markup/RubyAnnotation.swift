/// A ruby (furigana) reading over its base text: `{漢字|かんじ}`.
///
/// The value of `CommentAttributes.RubyAttribute` on the base's runs. The number tells two
/// adjacent annotations with the same reading apart (`{日|ひ}{日|ひ}`), as spoiler numbers do.
public struct RubyAnnotation: Hashable, Sendable {
    /// The reading, plain text made visible-safe.
    public var reading: String
    /// The annotation's number within its comment, from 1.
    public var number: Int

    public init(reading: String, number: Int) {
        self.reading = reading
        self.number = number
    }
}
