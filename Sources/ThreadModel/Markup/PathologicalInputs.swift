/// Inputs that make naive Markdown parsers quadratic (cmark's list plus chat ones), for the
/// linear-time tests and the benchmarks.
public enum PathologicalInputs {
    /// Each case by name, built at about `n` repetitions.
    public static func all(_ n: Int) -> [(name: String, text: String)] {
        let backtickRuns = Int((2 * Double(n)).squareRoot())
        return [
            ("stars around a", String(repeating: "*", count: n) + "a" + String(repeating: "*", count: n)),
            ("unclosed brackets [a", String(repeating: "[a", count: n)),
            ("a_ closers", String(repeating: "a_ ", count: n)),
            ("nested ** and *", String(repeating: "*a **a ", count: n) + String(repeating: " a** a*", count: n)),
            ("increasing backtick runs", (1...max(1, backtickRuns)).map { String(repeating: "`", count: $0) }.joined(separator: "a")),
            ("unclosed links [a](b", String(repeating: "[a](b", count: n)),
            ("unclosed links [a](<b", String(repeating: "[a](<b", count: n)),
            ("nested brackets", String(repeating: "[", count: n) + "a" + String(repeating: "]", count: n)),
            ("nested brackets, a definition", "[b]: /u\n\n" + String(repeating: "[", count: n) + "a" + String(repeating: "]", count: n)),
            ("shortcut references [a]", "[a]: /u\n\n" + String(repeating: "[a] ", count: n)),
            ("unclosed HTML comments <!--", String(repeating: "<!-- a ", count: n)),
            ("unclosed attribute values <a b=\"", String(repeating: "<a b=\"c ", count: n)),
            ("spoiler openers ||a", String(repeating: "||a ", count: n)),
            ("spaced bars a || ", String(repeating: "a || ", count: n)),
            ("mentions @x", String(repeating: "@x ", count: n)),
            ("many runs *a* b", String(repeating: "*a* b ", count: n)),
            ("unclosed ruby {a|b", String(repeating: "{a|b ", count: n)),
            ("nested ruby braces", String(repeating: "{", count: n) + "a|b" + String(repeating: "}", count: n)),
            ("ruby bases with markup {*a*|b}", String(repeating: "{*a* @x|b} ", count: n)),
            // Each annotation forms only once the one inside it is escaped (`escapingSpoilersAndRuby`).
            ("annotations around annotations {x{a|b}|c}", String(repeating: "{x", count: n) + "{a|b}" + String(repeating: "|c}", count: n)),
        ]
    }
}
