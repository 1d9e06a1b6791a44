/// The scripting verbs of `comment-tui`: each runs without a terminal and returns an exit status.
public enum Verb: String, CaseIterable, Sendable {
    case new
    case post
    case generate
    case importGitHub = "import-github"
    case check
    case inspect
    case render
    case export
    case importThread = "import"
    case login
    case logout
    case verify
    case keys

    /// The verb's usage text, shown by `--help` and after a usage error.
    var usage: String {
        switch self {
        case .new: NewCommand.usage
        case .post: PostCommand.usage
        case .generate: GenerateCommand.usage
        case .importGitHub: ImportGitHubCommand.usage
        case .check: CheckCommand.usage
        case .inspect: InspectCommand.usage
        case .render: RenderCommand.usage
        case .export: ExportCommand.usage
        case .importThread: ImportCommand.usage
        case .login: LoginCommand.usage
        case .logout: LogoutCommand.usage
        case .verify: VerifyCommand.usage
        case .keys: KeysCommand.usage
        }
    }

    /// Runs the verb with the arguments after its name; failures go to stderr.
    public func run(_ arguments: [String], context: CommandContext) -> Int32 {
        do {
            switch self {
            case .new: return try NewCommand.run(arguments, context: context)
            case .post: return try PostCommand.run(arguments, context: context)
            case .generate: return try GenerateCommand.run(arguments, context: context)
            case .importGitHub: return try ImportGitHubCommand.run(arguments, context: context)
            case .check: return try CheckCommand.run(arguments, context: context)
            case .inspect: return try InspectCommand.run(arguments, context: context)
            case .render: return try RenderCommand.run(arguments, context: context)
            case .export: return try ExportCommand.run(arguments, context: context)
            case .importThread: return try ImportCommand.run(arguments, context: context)
            case .login: return try LoginCommand.run(arguments, context: context)
            case .logout: return try LogoutCommand.run(arguments, context: context)
            case .verify: return try VerifyCommand.run(arguments, context: context)
            case .keys: return try KeysCommand.run(arguments, context: context)
            }
        } catch let failure as CommandFailure {
            context.writeError("comment-tui \(rawValue): \(failure.message)\n")
            return failure.status
        } catch {
            context.writeError("comment-tui \(rawValue): \(VisibleText.escape("\(error)"))\n")
            return 1
        }
    }

    /// Prints a verb's usage when `--help` was given; true if it did.
    static func printsHelp(_ arguments: CommandLineArguments, usage: String, context: CommandContext) throws -> Bool {
        guard arguments.wantsHelp else { return false }
        try context.print(usage)
        return true
    }
}
