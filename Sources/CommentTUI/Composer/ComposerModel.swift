import Foundation
import ScrollEngine
import ThreadModel

/// How an event changed the draft by typing, which the mention list follows.
enum DraftEdit: Equatable {
    case typed(Character)
    case deletedBackward
}

/// What the composer asks of the rest of the app after a chord key.
enum ComposerEffect: Equatable {
    /// A line for the status bar.
    case message(String, isError: Bool = false)
    /// Clears the status bar's message (a chord ended).
    case clearMessage
    /// Run the user's editor on this text (Ctrl-X Ctrl-E).
    case openEditor(String)
}

/// The composer: the draft, its window on screen, the Ctrl-X chord, and debounced saving.
final class ComposerModel {
    /// The draft.
    private(set) var draft = ComposerDocument() {
        didSet { draftDidChange() }
    }
    /// Counts changes of the draft (text, caret or selection), so its layout is cached until the next.
    private(set) var revision = 0
    /// Ctrl-X was pressed: the next key picks a format or the editor.
    private(set) var isInChord = false
    private var windowCache: (revision: Int, width: Int, rows: Int, window: ComposerWindow)?
    private var size: (columns: Int, rows: Int)
    /// Saves the draft (its encoded bytes, or nil to delete it); nil keeps drafts in memory only.
    var save: ((Data?) throws -> Void)?
    /// When the pending save is due, if one is, and since when the draft has unsaved changes.
    private(set) var saveDue: ScrollInstant?
    private var dirtySince: ScrollInstant?
    /// The app's clock; saves are timed by it.
    let clock: AppClock
    private var now: ScrollInstant { clock.now }

    init(columns: Int, rows: Int, clock: AppClock) {
        size = (columns, rows)
        self.clock = clock
    }

    /// Follows the terminal's size.
    func resize(columns: Int, rows: Int) { size = (columns, rows) }

    /// Wraps the draft again at the next frame (clusters changed width).
    func forgetLayout() { windowCache = nil }

    /// The rows the composer may take: a third of the screen.
    var maximumRows: Int { max(1, size.rows / 3) }

    /// The draft around the caret, wrapped at the composer's width (cached per revision and size).
    func window(handles: (String) -> String?) -> ComposerWindow {
        let width = max(1, size.columns - ComposerView.promptWidth)
        let rows = maximumRows
        if let cached = windowCache, cached.revision == revision, cached.width == width, cached.rows == rows {
            return cached.window
        }
        let window = ComposerWindow(document: draft, width: width, rows: rows, handles: handles)
        windowCache = (revision, width, rows, window)
        return window
    }

    // MARK: Editing

    /// Carries out an editing key (`typed` is the key's character, for `.typeCharacter`); returns
    /// how it edited the draft by typing, which the mention list follows (nil: not by typing).
    @discardableResult
    func apply(_ edit: ComposerEdit, typed: Character?, handles: (String) -> String?) -> DraftEdit? {
        switch edit {
        case .typeCharacter:
            guard let typed else { return nil }
            draft.insert(String(typed))
            return .typed(typed)
        case .deleteBackward:
            draft.deleteBackward()
            return .deletedBackward
        case .newLine: draft.insert("\n")
        case .tab: draft.insert("\t")
        case .deleteForward: draft.deleteForward()
        case .killWordBackward: draft.killWordBackward()
        case .killWordForward: draft.killWordForward()
        case .killToLineEnd: draft.killToLineEnd()
        case .killToLineStart: draft.killToLineStart()
        case .yank: draft.yank()
        case .moveCharacter(let step, let extending): draft.move(by: step, extending: extending)
        case .moveWord(let forward, let extending): draft.moveWord(forward: forward, extending: extending)
        case .moveToLineStart(let extending): draft.moveToLineStart(extending: extending)
        case .moveToLineEnd(let extending): draft.moveToLineEnd(extending: extending)
        case .moveRow(let step): moveCaretVertically(by: step, handles: handles)
        case .undo: draft.undo()
        case .redo: draft.redo()
        }
        return nil
    }

    /// Ctrl-X: the next key is a chord's second key.
    func startChord() -> ComposerEffect {
        isInChord = true
        return .message("Ctrl-X: b bold · i italic · s strike · c code · p spoiler · Ctrl-E editor")
    }

    /// The chord's second key: a format, the editor, a cancel, or an unbound key (`action` nil).
    func finishChord(_ action: KeyAction?, press: KeyPress) -> ComposerEffect {
        isInChord = false
        switch action {
        case .format(let format)?:
            draft.toggle(format)
            return .clearMessage
        case .openEditor?:
            return .openEditor(draft.markdown)
        case .cancelChord?:
            return .clearMessage
        default:
            return .message("Ctrl-X \(press) is not bound (F1 lists the keys)")
        }
    }

    /// Inserts pasted text (the document sanitizes it) as one edit; a pending chord ends.
    func paste(_ text: String) {
        isInChord = false
        draft.insert(text)
    }

    /// Inserts a user as an atomic mention in place of the `length` characters before the caret.
    func insertMention(_ user: User, replacingCharactersBeforeCaret length: Int) {
        draft.insertMention(handle: user.handle, userID: user.id, replacingCharactersBeforeCaret: length)
    }

    /// Puts a reply before the draft: a quote of the comment's first lines and a mention of its author.
    func insertReply(to comment: Comment, author: User?) {
        let lines = comment.body.split(separator: "\n", omittingEmptySubsequences: false)
        let quoted = lines.prefix(Self.replyQuoteLines).map { "> " + $0 }.joined(separator: "\n")
        let more = lines.count > Self.replyQuoteLines
        // One undo step takes the whole reply start back.
        draft.asOneEdit { draft in
            draft.moveToStart(extending: false)
            // Inserted as attributed text: a pending Ctrl-X format is for what the user types next.
            draft.insert(AttributedString(quoted + (more ? "\n> …" : "") + "\n\n"))
            if let author { draft.insertMention(handle: author.handle, userID: author.id) }
        }
    }

    static let replyQuoteLines = 3

    /// Whether there is something to send (`bodyToSend` is not nil), known without writing the
    /// draft's Markdown: asked after every key.
    var hasTextToSend: Bool { draft.hasVisibleText }

    /// The draft as a comment body: its Markdown, trimmed; nil when there is nothing to send.
    var bodyToSend: String? {
        let body = draft.markdown.trimmingCharacters(in: .whitespacesAndNewlines)
        return body.isEmpty ? nil : body
    }

    /// Empties the draft after it was sent, and saves that at once.
    func clearAfterSending() {
        sendingID = nil
        draft.clear()
        saveIfDue(force: true)
    }

    /// The id of the comment the draft is being sent as, saved with it (nil when not sending).
    private(set) var sendingID: String?

    /// Saves the draft at once marked as being sent as comment `id` (before the send, so a
    /// crash between the append and the draft's deletion cannot bring a sent draft back), or
    /// unmarked again (nil, after a send that failed). Returns a failure to save.
    @discardableResult
    func markSending(_ id: String?) -> Error? {
        sendingID = id
        guard save != nil else { return nil }
        saveDue = now
        return saveIfDue(force: true)
    }

    /// Puts `document` in the composer and returns the draft it replaces (Alt-C's edit of a
    /// sent comment comes and goes so).
    func exchangeDraft(for document: ComposerDocument) -> ComposerDocument {
        defer { draft = document }
        return draft
    }

    /// Takes the editor's text back as the draft.
    func replaceAll(withEdited text: String, handles: (String) -> String?) {
        draft.replaceAll(withTyped: text, handles: handles)
    }

    /// A click in the composer's rect puts the caret at the character under the pointer.
    func placeCaret(column: Int, row: Int, in rect: CellRect, handles: (String) -> String?) {
        let window = window(handles: handles)
        let first = ComposerView(window: window).firstRow(height: rect.height)
        moveCaret(toWindowOffset: window.layout.offset(row: first + row - rect.row, column: column - rect.column - ComposerView.promptWidth),
                  in: window)
    }

    /// Moves the caret to the row above or below at the same column (Up/Down in a draft of
    /// several rows); on the first or last row, to the draft's start or end.
    private func moveCaretVertically(by step: Int, handles: (String) -> String?) {
        let window = window(handles: handles)
        let here = window.layout.position(ofOffset: window.caret)
        let row = here.row + step
        if row < 0 { draft.moveToStart(extending: false); return }
        if row >= window.layout.rows.count { draft.moveToEnd(extending: false); return }
        // The window holds more rows than the composer shows, so the target row is always in it.
        moveCaret(toWindowOffset: window.layout.offset(row: row, column: here.column), in: window)
    }

    /// Puts the caret at an offset inside the composer's window, counted from the caret's own
    /// place in it: no count from the draft's start, so Up or a click in a 1 MB draft costs
    /// what the window costs.
    private func moveCaret(toWindowOffset inWindow: Int, in window: ComposerWindow) {
        draft.placeCaret(charactersFromCaret: inWindow - window.caret)
    }

    // MARK: Keeping the draft: debounced saves while typing, forced ones before leaving the screen

    /// How long after the last edit the draft is saved: a burst of typing is one write.
    static let saveDelay = 0.5
    /// The longest an unsaved change waits while typing goes on.
    static let saveMaximumDelay = 2.0
    /// How long a failed save waits before the next try.
    static let saveRetry = 5.0

    /// Notes a change of the draft: the cached window is stale and a save is due.
    private func draftDidChange() {
        revision &+= 1
        guard save != nil else { return }
        // Debounced: 0.5 s after the last change, but never more than 2 s after the first
        // unsaved one, so steady typing is saved too.
        let since = dirtySince ?? now
        dirtySince = since
        saveDue = min(now + Self.saveDelay, since + Self.saveMaximumDelay)
    }

    /// Whether the draft is kept in a file (not when there is none, or it could not be read
    /// nor moved aside: drafts are not saved this session then).
    var keepsDraftOnDisk: Bool { save != nil }

    /// Saves of big drafts off the loop's thread (made with `save` by `keep(in:)`).
    private(set) var writer: DraftWriter?
    /// From this size a debounced save is encoded and written off the loop's thread.
    static let savedOffTheLoopBytes = 64 << 10

    /// Saves the draft if a save is due by now (or `force`); a failure keeps it due. Returns the
    /// failure. A debounced save of a big draft goes to the writer; a forced one (before a send,
    /// a suspend, the editor or the exit) waits for it and is written here, at once.
    @discardableResult
    func saveIfDue(force: Bool = false) -> Error? {
        if let writer, let failure = force ? writer.finish() : writer.takeFailure() {
            // The file holds an older draft than this one: it is due again.
            if !force {
                saveDue = now + Self.saveRetry
                dirtySince = dirtySince ?? now
                return failure
            }
            saveDue = now
        }
        guard let due = saveDue, force || now >= due, let save else { return nil }
        if !force, let writer, draft.text.utf8.count >= Self.savedOffTheLoopBytes {
            writer.save(draft, sending: sendingID)
            saveDue = nil
            dirtySince = nil
            return nil
        }
        // After any save in flight, so the file ends with this one.
        _ = writer?.finish()
        do {
            try save(draft.isEmpty ? nil : draft.encoded(sending: sendingID))
            saveDue = nil
            dirtySince = nil
            return nil
        } catch {
            saveDue = now + Self.saveRetry
            return error
        }
    }

    /// Restores a saved draft (at start-up).
    func restore(_ data: Data) throws {
        draft = try ComposerDocument(decoding: data)
        saveDue = nil
    }

    /// Restores the thread's saved draft and saves to `file` from now on; returns what to tell
    /// the reader. A draft that does not read is moved aside (never overwritten); a draft that
    /// was being sent as a comment `isInThread` finds (the client died after the append) is deleted.
    func keep(in file: DraftFile, isInThread: (String) -> Bool = { _ in false }) -> (text: String, isError: Bool)? {
        let shownPath = VisibleText.escape(file.path)
        do {
            try file.files.checkDirectory()
        } catch {
            // Nothing there is read or written: the folder itself is not one to trust.
            return ("drafts are not saved this session: \(VisibleText.escape("\(error)"))", true)
        }
        var report: (String, Bool)?
        do {
            if let data = try file.load() {
                if let id = ComposerDocument.sendingID(inEncoded: data), isInThread(id) {
                    try file.remove()
                } else {
                    try restore(data)
                    report = ("draft restored", false)
                }
            }
        } catch {
            let problem = VisibleText.escape("\(error)")
            guard let aside = try? file.setAside() else {
                // It could not be moved: do not save over it either.
                return ("saved draft unreadable and not movable: drafts are not saved this session (\(shownPath): \(problem))", true)
            }
            // What happened first, where and why after: a status bar shows the start of it.
            let name = VisibleText.escape((aside as NSString).lastPathComponent)
            let directory = VisibleText.escape((aside as NSString).deletingLastPathComponent)
            report = ("saved draft unreadable, set aside as \(name) in \(directory): \(problem)", true)
        }
        save = { data in
            if let data { try file.save(data) } else { try file.remove() }
        }
        writer = DraftWriter(file: file)
        return report
    }
}
