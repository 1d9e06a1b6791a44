import ThreadModel

/// Asks the terminal, before the screen is taken, which emoji clusters it draws whole: each
/// sample is written after a carriage return and the cursor position asked for (CSI 6n); an
/// advance of two columns means one glyph, and a shape all of whose samples moved two is drawn
/// whole (`GraphemeProbe`). A terminal that reports grapheme clustering (DECRQM 2027 set, or
/// reset and settable: the client then sets it) draws every shape whole. No answer within the
/// timeout: every shape is substituted, as before. Answers are cached per terminal for the
/// next start.
public enum TerminalGraphemeProbe {
    /// `COMMENT_TUI_GRAPHEMES`: `substitute`, `intact` or `probe` (the default).
    public static let variable = "COMMENT_TUI_GRAPHEMES"
    /// How long the terminal has to answer every query.
    static let timeout = 0.25

    /// The policy for the terminal on `input`/`output`: the variable's, else the cached one for
    /// this terminal, else a probe's (then cached).
    public static func policy(environment: [String: String], input: FileDescriptor = .standardInput,
                              output: FileDescriptor = .standardOutput) -> GraphemePolicy {
        switch environment[variable] {
        case "substitute"?: return .substitute
        case "intact"?: return .allIntact
        default: break
        }
        let cache = GraphemePolicyCache(environment: environment)
        if let known = cache?.policy() { return known }
        guard let answered = TerminalDevice.withQuietInput(input, { probe(input: input, output: output) }) ?? nil else {
            return .substitute
        }
        cache?.save(answered)
        return answered
    }

    /// Writes the samples and queries, reads the answers; nil when the terminal did not answer.
    static func probe(input: FileDescriptor, output: FileDescriptor) -> GraphemePolicy? {
        var probe = GraphemeProbe(samples: samples, cache: nil)
        guard (try? output.writeAll(Array(probe.query.utf8))) != nil else { return nil }
        var decoder = InputDecoder()
        decoder.awaitCursorReports(probe.reportCount)
        let deadline = MonotonicClock.now() + timeout
        while !probe.isComplete {
            let left = deadline - MonotonicClock.now()
            guard left > 0, let ready = try? Poll.readable([input], timeout: left), !ready.isEmpty,
                  let chunk = try? input.read(upTo: 256), !chunk.isEmpty else { return nil }
            for event in decoder.feed(chunk) { _ = probe.take(event) }
        }
        return probe.policy
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
