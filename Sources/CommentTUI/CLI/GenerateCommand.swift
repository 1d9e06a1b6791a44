import ThreadModel

/// `comment-tui generate --comments N --users M [--seed S]`: a realistic thread on stdout.
enum GenerateCommand {
    static let usage = """
    Usage: comment-tui generate --comments N --users M [--seed S]

    Writes a realistic thread file to standard output: Markdown, mentions, spoilers, code,
    links, CJK, emoji, long and short comments, a few edited. The same seed always gives the
    same bytes (default seed: 1); nothing depends on the clock.
    Example: comment-tui generate --comments 100000 --users 300 --seed 7 > big.jsonl
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--comments", "--users", "--seed"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        _ = try parsed.positionals([], usage: usage)
        let comments = try count("--comments", parsed.required("--comments", usage: usage), minimum: 0)
        let users = try count("--users", parsed.required("--users", usage: usage), minimum: 1)
        let seedText = parsed.value("--seed") ?? "1"
        guard let seed = UInt64(seedText) else {
            throw CommandFailure.usage("--seed must be a whole number from 0 to \(UInt64.max), not '\(VisibleText.escape(seedText))'", usage)
        }
        try ThreadGenerator(comments: comments, users: users, seed: seed).write(to: context.writeOutput)
        return 0
    }

    private static func count(_ name: String, _ text: String, minimum: Int) throws -> Int {
        guard let value = Int(text), value >= minimum, value <= 100_000_000 else {
            throw CommandFailure.usage("\(name) must be a whole number from \(minimum) to 100000000, not '\(VisibleText.escape(text))'", usage)
        }
        return value
    }
}
