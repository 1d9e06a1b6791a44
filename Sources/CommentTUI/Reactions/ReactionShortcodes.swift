/// A small built-in table of `:shortcode:`s for the reaction picker (the names Slack, GitHub and
/// Element share for the reactions people use most).
enum ReactionShortcodes {
    static let table: [String: String] = [
        "+1": "👍", "thumbsup": "👍", "-1": "👎", "thumbsdown": "👎", "heart": "❤️", "joy": "😂", "laughing": "😆",
        "smile": "😄", "slightly_smiling_face": "🙂", "wink": "😉", "tada": "🎉", "eyes": "👀", "fire": "🔥",
        "rocket": "🚀", "clap": "👏", "pray": "🙏", "ok_hand": "👌", "wave": "👋", "muscle": "💪", "raised_hands": "🙌",
        "thinking": "🤔", "thinking_face": "🤔", "cry": "😢", "sob": "😭", "scream": "😱", "angry": "😠", "rage": "😡",
        "confused": "😕", "grimacing": "😬", "sweat_smile": "😅", "rofl": "🤣", "heart_eyes": "😍", "sunglasses": "😎",
        "100": "💯", "star": "⭐", "sparkles": "✨", "white_check_mark": "✅", "heavy_check_mark": "✔️", "x": "❌",
        "warning": "⚠️", "question": "❓", "exclamation": "❗", "bulb": "💡", "coffee": "☕", "beer": "🍺", "cake": "🍰",
        "party_popper": "🎉", "see_no_evil": "🙈", "skull": "💀", "zap": "⚡", "bug": "🐛", "ship": "🚢",
    ]

    /// The emoji a `:shortcode:` names (case-insensitive), if the table has it.
    static func emoji(for text: String) -> String? {
        guard text.count > 2, text.hasPrefix(":"), text.hasSuffix(":") else { return nil }
        return table[String(text.dropFirst().dropLast()).lowercased()]
    }
}
