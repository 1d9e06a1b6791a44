/// Asks the terminal which emoji clusters it draws whole, without making the first frame wait.
///
/// Before the screen is taken, each sample is written on the shell's line after a carriage
/// return and the cursor position asked for (CSI 6n); the line is then erased. The client draws
/// its first frame at once with every shape substituted; the answers come through the input
/// stream (`GraphemeProbe`), and once they are in, the shapes whose samples all moved the cursor
/// two columns are drawn whole and the text is laid out again. A terminal that reports grapheme
/// clustering (DECRQM 2027 set, or reset and settable: the client then sets it) draws every
/// shape whole. The probe's last query is DA1, whose answer ends the answers: until it comes,
/// every cursor position report is the probe's. A terminal that does not answer, or answers
/// with a key typed among the answers, keeps the substitutions. Answers are cached per terminal
/// for the next start.
public enum TerminalGraphemeProbe {
    /// `COMMENT_TUI_GRAPHEMES`: `substitute`, `intact` or `probe` (the default).
    public static let variable = "COMMENT_TUI_GRAPHEMES"
    /// How long a terminal that answers nothing is awaited, from when the probe was written
    /// (the first frame waits for none), and after each answer for the next. Until the last
    /// answer or this, a cursor position report is read as one, not as the modified F3 key xterm
    /// sends the same way. Generous: a terminal far away answers late, and terminals that answer
    /// at all answer DA1, which ends the wait.
    static let answerWindow = 10.0

    /// What the client starts with: the variable's policy, else the one cached for this
    /// terminal, else every shape substituted with a probe to send (its answer is then cached).
    public static func start(environment: [String: String]) -> (policy: GraphemePolicy, probe: GraphemeProbe?) {
        switch environment[variable] {
        case "substitute"?: return (.substitute, nil)
        case "intact"?: return (.allIntact, nil)
        default: break
        }
        let cache = GraphemePolicyCache(environment: environment)
        if let known = cache?.policy() { return (known, nil) }
        return (.substitute, GraphemeProbe(samples: samples, cache: cache))
    }

    /// One sample or more of every shape `emoji-test.txt` has (a test checks it); where clusters
    /// of one shape may differ, the ones terminals are most likely to draw otherwise. A shape is
    /// whole only if all its samples are. Samples the C library measures right are not sent.
    /// Tag sequences have none: at 28 bytes they never fit a cell.
    static let samples: [String] = [
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", "\u{1F62E}\u{200D}\u{1F4A8}",  // 👨‍👩‍👧 😮‍💨
        "\u{1F469}\u{1F3FD}\u{200D}\u{1F4BB}", "\u{1FAF1}\u{1F3FB}\u{200D}\u{1FAF2}\u{1F3FC}",  // 👩🏽‍💻, two tones 🫱🏻‍🫲🏼
        "\u{1F937}\u{1F3FB}\u{200D}\u{2642}\u{FE0F}",  // 🤷🏻‍♂️
        "\u{1F575}\u{1F3FB}\u{200D}\u{2642}\u{FE0F}",  // 🕵🏻‍♂️ (a narrow lead)
        "\u{1F937}\u{200D}\u{2642}\u{FE0F}", "\u{1F636}\u{200D}\u{1F32B}\u{FE0F}",  // 🤷‍♂️ 😶‍🌫️
        "\u{2764}\u{FE0F}\u{200D}\u{1F525}", "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",  // ❤️‍🔥 🏳️‍🌈
        "\u{1F441}\u{FE0F}\u{200D}\u{1F5E8}\u{FE0F}",  // 👁️‍🗨️
        "\u{1F44D}\u{1F3FD}", "\u{1F590}\u{1F3FB}",  // 👍🏽, and 🖐🏻 (a narrow lead)
        "\u{1F1EB}\u{1F1F7}",  // 🇫🇷
        "\u{2764}\u{FE0F}", "\u{263A}\u{FE0F}", "\u{3030}\u{FE0F}",  // ❤️ ☺️, and 〰️ (a wide lead)
        "1\u{FE0F}\u{20E3}", "#\u{FE0F}\u{20E3}",  // 1️⃣ #️⃣
        "\u{1FAE8}", "\u{1FAF7}\u{1F3FB}",  // 🫨 🫷🏻, where the C library is older than Unicode 15
        "\u{1FAE0}", "\u{1F972}",  // 🫠 🥲, where it is older than Unicode 14 or 13
    ]
}
