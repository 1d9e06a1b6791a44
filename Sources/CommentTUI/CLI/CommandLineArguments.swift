/// A verb's arguments split into positionals, `--option value` pairs and flags.
///
/// Accepts `--option value` and `--option=value`; `--` ends the options; `-h` means `--help`.
struct CommandLineArguments {
    private(set) var positionals: [String] = []
    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []

    /// Parses arguments against the options a verb takes; anything else is a usage error.
    init(_ arguments: [String], options: Set<String>, flags knownFlags: Set<String> = [], usage: String) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" { optionsEnded = true; continue }
            if argument == "-h" || argument == "--help" { flags.insert("--help"); continue }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if knownFlags.contains(name), inlineValue == nil {
                flags.insert(name)
            } else if options.contains(name) {
                guard values[name] == nil else { throw CommandFailure.usage("\(name) is given twice", usage) }
                if let inlineValue {
                    values[name] = inlineValue
                } else {
                    guard index < arguments.count else { throw CommandFailure.usage("\(name) needs a value", usage) }
                    values[name] = arguments[index]
                    index += 1
                }
            } else {
                throw CommandFailure.usage("unknown option '\(VisibleText.escape(argument))'", usage)
            }
        }
    }

    /// Whether `--help` (or `-h`) was given.
    var wantsHelp: Bool { flags.contains("--help") }

    /// An option's value, if given.
    func value(_ name: String) -> String? { values[name] }

    /// An option that must be given.
    func required(_ name: String, usage: String) throws -> String {
        guard let value = values[name] else { throw CommandFailure.usage("\(name) is required", usage) }
        return value
    }

    /// Exactly `count` positionals, named in the error when missing or extra.
    func positionals(_ names: [String], usage: String) throws -> [String] {
        if positionals.count < names.count {
            throw CommandFailure.usage("missing \(names[positionals.count])", usage)
        }
        if positionals.count > names.count {
            throw CommandFailure.usage("unexpected argument '\(VisibleText.escape(positionals[names.count]))'", usage)
        }
        return positionals
    }
}
