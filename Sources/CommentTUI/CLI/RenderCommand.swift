import Foundation
import ScrollEngine
import ThreadModel

/// `comment-tui render FILE [--width N] [--plain] [--now TIME]`: the thread as the client lays
/// it out, printed: the header with the whole post, then every comment whole (spoilers masked).
/// A print hides nothing it could show: the client's collapsed rows are there to be clicked.
enum RenderCommand {
    static let usage = """
    Usage: comment-tui render FILE [--width N] [--plain] [--now TIME] [--as HANDLE]

    Prints the thread as the client lays it out, with ANSI styles (without colours when NO_COLOR
    is set; or --plain text): the post and every comment whole (a body's first 1 MiB; a longer
    one ends counting the rest). Lines that do not read are named on stderr as FILE:LINE:
    message, with exit status 1. FILE may be a room (matrix:…, read whole as the logged-in account; --as @user:server picks one)
    or a post in one (matrix:ROOM/$EVENT: the root and its replies):
      --width N     columns to lay out in (default: $COLUMNS, else 80; at least 20)
      --now TIME    the time relative times count to, e.g. 2025-04-17T12:00:00Z (default: now)
      --as HANDLE   whose mentions stand out, as in the client
    Example: comment-tui render team.jsonl --width 72 --plain --now 2025-04-18T00:00:00Z
    """

    static func run(_ arguments: [String], context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: ["--width", "--now", "--as"], flags: ["--plain"], usage: usage)
        if try Verb.printsHelp(parsed, usage: usage, context: context) { return 0 }
        let path = try parsed.positionals(["FILE"], usage: usage)[0]
        let widthText = parsed.value("--width") ?? context.environment["COLUMNS"] ?? "80"
        let widest = TerminalDevice.maxColumns
        guard let width = Int(widthText), width >= 20, width <= widest else {
            throw CommandFailure.usage("--width must be a number from 20 to \(widest), not '\(VisibleText.escape(widthText))'", usage)
        }
        var now = context.now()
        if let text = parsed.value("--now") {
            guard let date = Timestamp.parse(text) else {
                throw CommandFailure.usage("--now must look like 2025-04-17T12:00:00Z, not '\(VisibleText.escape(text))'", usage)
            }
            now = date
        }
        if let room = try RoomOpener.address(path) {
            // In a room `--as` names the account (@user:server), whose mentions stand out.
            let (source, thread) = try RoomVerbs.snapshot(room, as: parsed.value("--as"), context: context)
            try render(InMemoryThreadSource(thread: thread, label: room.identifier), width: width, now: now,
                       plain: parsed.flags.contains("--plain"), as: source.reader.handle, reactions: thread.reactions, context: context)
            return 0
        }
        let source: ThreadFileSource
        do {
            // A snapshot: nothing is followed.
            source = try ThreadFileSource(path: path, environment: context.environment, follows: false)
        } catch let error as SystemError {
            throw CommandFailure("cannot read \(VisibleText.escape(error.description))")
        }
        // Every line is read once for the problems; the header counts the comments that read.
        let (problems, readable, reactions) = problems(of: source)
        try render(source, width: width, now: now, plain: parsed.flags.contains("--plain"), as: parsed.value("--as"),
                   commentCount: readable, reactions: reactions, context: context)
        // What reads is printed; what does not is named on stderr, and the status says so.
        for problem in problems {
            context.writeError("\(VisibleText.escape(path)):\(problem.line): \(VisibleText.escape(problem.message))\n")
        }
        return problems.isEmpty ? 0 : 1
    }

    /// The file's problems as `check` finds them (lines that did not read, comments by unknown
    /// users, ids used twice), from the index and a pass over its comments, in line order; and
    /// how many comments read, and the reactions standing (`ReactionTally.counting`, as `check`).
    static func problems(of source: ThreadFileSource) -> (problems: [ThreadFileProblem], readable: Int, reactions: ReactionTally) {
        var problems = source.openingProblems
        var readable = 0
        let index = source.index
        var ids: [String: Int] = [:]
        var deleted: Set<String> = []
        for position in 0..<index.commentCount {
            switch index.comment(at: position) {
            case .failure(let problem):
                problems.append(problem)
            case .success(let comment):
                readable += 1
                if comment.isDeleted { deleted.insert(comment.id) }
                let line = index.lineNumber(ofComment: position)
                if ids[comment.id] == nil {
                    ids[comment.id] = line
                } else {
                    problems.append(ThreadFileProblem(line: line, message: "comment id \"\(comment.id)\" used before"))
                }
                if source.thread.user(id: comment.author) == nil {
                    problems.append(ThreadFileProblem(
                        line: line, message: "comment by unknown user \"\(comment.author)\" (no user record with that id)"))
                }
            }
        }
        // Every comment is decoded now, so every edit and deletion that does not count is known.
        problems += index.changeProblems.values
        for (id, found) in index.changes where ids[id] == nil {
            problems += found.map { CommentChange.unknownCommentProblem($0.change, line: $0.line) }
        }
        let users = Set(source.thread.users.map(\.id))
        // The records are read again, one at a time: the index keeps only their count.
        var counting = ReactionTally.Counting(commentLines: ids, isKnownUser: users.contains)
        do {
            try index.forEachReactionRecord { counting.take($0, line: $1) }
        } catch {
            problems.append(ThreadFileProblem(line: 1, message: "the reaction records could not be read again: \(error)"))
        }
        let counted = counting.finish(deleted: deleted)
        problems += counted.problems
        return (problems.sorted { $0.line < $1.line }, readable, counted.tally)
    }

    /// Prints the thread of any source as opened: its header, then its opened comments.
    /// `commentCount`: the comments that read, for the header (default: every one opened).
    /// `reactions`: drawn under their comments, the reader's (`handle`) marked.
    static func render(_ source: ThreadSource, width: Int, now: Date, plain: Bool, as handle: String?,
                       commentCount: Int? = nil, reactions: ReactionTally = ReactionTally(), context: CommandContext) throws {
        let thread = source.thread
        let comments = source.openedComments
        let me = handle.flatMap { thread.user(handle: $0) }
        let usesColor = Theme.usesColor(environment: context.environment)
        let print = { (buffer: CellBuffer) throws in
            var buffer = buffer
            if !usesColor { buffer.restyleAll(Theme.monochrome) }
            let lines = plain ? buffer.trimmedLines : (0..<buffer.rows).map(buffer.ansiLine)
            let text = lines.joined(separator: "\n")
            try context.writeOutput(Array((text + "\n").utf8))
        }
        let handles = thread.userIDsByLowercasedHandle
        let headerLayout = ThreadHeaderLayout(thread: thread, width: width, handles: { handles[$0.lowercased()] }, bodyRows: nil)
        let headerView = HeaderView(thread: thread, commentCount: commentCount ?? comments.commentCount, layout: headerLayout,
                                    shownRows: headerLayout.postRows, ownUserID: me?.id ?? "")
        var header = CellBuffer(columns: width, rows: headerView.height)
        headerView.draw(into: &header, width: width)
        try print(header)
        let layout = FeedLayout(width: width)
        let item = { (position: Int) -> FeedItem in
            let item = FeedItem(comments.comment(at: position))
            if case .comment(let comment) = item, source.isPlaceholder(comment.id) { return .encrypted(comment) }
            return item
        }
        var feedSource = FeedLayout.Source(item: item, user: thread.user(id:), handleID: { handles[$0.lowercased()] },
                                           isExpanded: { _ in true }, printsWhole: true)
        let myID = me?.id ?? ""
        feedSource.reactions = { Array(reactions.counts(of: $0, me: myID).prefix(ReactionRow.maxKeys)) }
        for position in 0..<comments.commentCount {
            let comment = layout.layout(of: position, feedSource)
            var buffer = CellBuffer(columns: width, rows: comment.rowCount)
            FeedView(anchor: FeedAnchor(comment: position, row: 0), commentCount: comments.commentCount, postRows: 0, ownUserID: me?.id ?? "",
                     selected: nil, now: now, layout: { layout.layout(of: $0, feedSource) }, revealed: { _ in [] })
                .draw(into: &buffer, rect: CellRect(column: 0, row: 0, width: width, height: comment.rowCount))
            try print(buffer)
            layout.invalidate(position)
        }
    }
}
