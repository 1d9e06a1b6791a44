/// A count with its noun, singular for one: `1 comment`, `3 comments`, `0 users`.
enum CountText {
    /// `count` then the noun, `plural` (default: the singular and `s`) unless the count is one.
    static func of(_ count: Int, _ singular: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? singular : plural ?? singular + "s")
    }
}
