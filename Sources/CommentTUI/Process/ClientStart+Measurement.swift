import Foundation
import ThreadModel

/// The client as `comment-tui` with no thread named makes it, without a terminal: for the
/// benchmark (`comment-tui-bench home`), which times the real start rather than a copy of it.
extension CommentClient {
    /// Home over the accounts logged in under `environment` (its `XDG_CONFIG_HOME`, and
    /// `XDG_CACHE_HOME` for the home cache), their syncs started; the demo thread when there is
    /// nothing to list, as `comment-tui` starts. Desktop notifications are off.
    /// - Parameter usesCache: false is `--no-cache`: home's cache is neither read nor written.
    public static func startedAtHome(environment: [String: String], columns: Int, rows: Int,
                                     usesCache: Bool = true) throws -> CommentClient {
        var context = CommandContext.process()
        context.environment = environment
        var request = OpenCommand.Request()
        request.usesCache = usesCache
        request.notifies = false
        let start = try ClientStart.resolve(request, context: context)
        return try start.makeClient(columns: columns, rows: rows, settings: SessionSettings(), request: request, context: context)
    }
}
