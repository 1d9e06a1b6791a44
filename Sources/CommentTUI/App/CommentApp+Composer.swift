import Foundation
import ScrollEngine
import ThreadModel

/// The composer's keys: readline editing, selection, undo, formatting, the editor, replies.
extension CommentApp {
    /// The rows the composer may take: a third of the screen.
    var composerMaximumRows: Int { max(1, size.rows / 3) }

    /// The draft around the caret, wrapped at the composer's width (cached per draft revision and size).
    var composerWindow: ComposerWindow {
        let textWidth = max(1, size.columns - ComposerView.promptWidth)
        let rows = composerMaximumRows
        if let cached = composerCache, cached.revision == draftRevision, cached.width == textWidth, cached.rows == rows {
            return cached.window
        }
        let window = ComposerWindow(document: draft, width: textWidth, rows: rows, handles: handleID)
        composerCache = (draftRevision, textWidth, rows, window)
        return window
    }

    var composerView: ComposerView { ComposerView(window: composerWindow) }

    /// Handles a key meant for the draft; false when the key is not an editing key.
    func editDraft(_ press: KeyPress) -> Bool {
        if pendingControlX {
            pendingControlX = false
            return controlXChord(press)
        }
        let shift = press.modifiers.contains(.shift)
        switch (press.key, press.modifiers.subtracting(.shift)) {
        case (.backspace, []): draft.deleteBackward(); draftEdit = .deletedBackward
        case (.backspace, .alt), (.character("w"), .ctrl): draft.killWordBackward()
        case (.delete, []): draft.deleteForward()
        case (.left, []): draft.move(by: -1, extending: shift)
        case (.right, []): draft.move(by: 1, extending: shift)
        case (.character("b"), .ctrl): draft.move(by: -1, extending: false)
        case (.character("f"), .ctrl): draft.move(by: 1, extending: false)
        case (.left, .ctrl): draft.moveWord(forward: false, extending: shift)
        case (.right, .ctrl): draft.moveWord(forward: true, extending: shift)
        case (.character("b"), .alt): draft.moveWord(forward: false, extending: false)
        case (.character("f"), .alt): draft.moveWord(forward: true, extending: false)
        case (.home, []) where shift: draft.moveToLineStart(extending: true)
        case (.end, []) where shift: draft.moveToLineEnd(extending: true)
        case (.character("a"), .ctrl): draft.moveToLineStart(extending: false)
        case (.character("e"), .ctrl): draft.moveToLineEnd(extending: false)
        case (.up, []) where !shift: moveCaretVertically(by: -1)
        case (.down, []) where !shift: moveCaretVertically(by: 1)
        case (.character("k"), .ctrl): draft.killToLineEnd()
        case (.character("u"), .ctrl): draft.killToLineStart()
        case (.character("d"), .alt): draft.killWordForward()
        case (.character("y"), .ctrl): draft.yank()
        case (.character("_"), .ctrl), (.character("/"), .ctrl): draft.undo()
        case (.character("_"), .alt): draft.redo()
        case (.character("x"), .ctrl): pendingControlX = true; show("Ctrl-X: b bold · i italic · s strike · c code · p spoiler · Ctrl-E editor")
        case (.tab, []): draft.insert("\t")
        case (.character(let c), []):
            draft.insert(String(c))
            draftEdit = .typed(c)
        default:
            return false
        }
        return true
    }

    /// The key after Ctrl-X: a format to toggle, or the external editor.
    private func controlXChord(_ press: KeyPress) -> Bool {
        let formats: [Character: ComposerFormat] = ["b": .bold, "i": .italic, "s": .strikethrough, "c": .code, "p": .spoiler]
        switch (press.key, press.modifiers) {
        case (.character(let c), []) where formats[c] != nil:
            draft.toggle(formats[c]!)
            message = nil
        case (.character("e"), .ctrl):
            pendingExternalEdit = true
            message = nil
        case (.escape, []), (.character("g"), .ctrl):
            message = nil
        default:
            show("Ctrl-X \(press) is not bound (F1 lists the keys)")
        }
        return true
    }

    /// Moves the caret to the row above or below at the same column (Up/Down in a draft of
    /// several rows); on the first or last row, to the draft's start or end.
    private func moveCaretVertically(by step: Int) {
        let window = composerWindow
        let here = window.layout.position(ofOffset: window.caret)
        let row = here.row + step
        if row < 0 { draft.moveToStart(extending: false); return }
        if row >= window.layout.rows.count { draft.moveToEnd(extending: false); return }
        // The window holds more rows than the composer shows, so the target row is always in it.
        moveCaret(toWindowOffset: window.layout.offset(row: row, column: here.column), in: window)
    }

    /// Puts the caret at an offset inside the composer's window (its caret's offset is known
    /// in both the window and the draft, so no count from the draft's start is needed twice).
    private func moveCaret(toWindowOffset inWindow: Int, in window: ComposerWindow) {
        let offset = draft.cursorOffset - window.caret + inWindow
        draft.select(offset..<offset)
    }

    /// A click in the composer puts the caret at the character under the pointer.
    func placeCaret(column: Int, row: Int) {
        let rect = regions.composer
        let window = composerWindow
        let first = composerView.firstRow(height: rect.height)
        moveCaret(toWindowOffset: window.layout.offset(row: first + row - rect.row, column: column - rect.column - ComposerView.promptWidth),
                  in: window)
    }

    /// Takes the editor's text back as the draft (Ctrl-X Ctrl-E), or says why it did not come.
    public func finishExternalEdit(_ result: Result<String, Error>, at time: ScrollInstant) {
        advance(to: time)
        switch result {
        case .success(let text):
            draft.replaceAll(withTyped: text, handles: handleID)
            show("draft edited in the editor")
        case .failure(let error):
            show("draft unchanged: \(error)", error: true)
        }
    }

    /// Alt-R: starts a reply to the selected comment: a quote of its first lines and a mention
    /// of its author, put before whatever the draft holds.
    func startReply() {
        guard let index = selectedComment, case .success(let comment) = feedComment(at: index) else {
            show("select a comment first (Alt-Up / Alt-Down)")
            return
        }
        let quoted = comment.body.split(separator: "\n", omittingEmptySubsequences: false)
            .prefix(Self.replyQuoteLines)
            .map { "> " + $0 }
            .joined(separator: "\n")
        let more = comment.body.split(separator: "\n", omittingEmptySubsequences: false).count > Self.replyQuoteLines
        draft.moveToStart(extending: false)
        // Inserted as attributed text: a pending Ctrl-X format is for what the user types next.
        draft.insert(AttributedString(quoted + (more ? "\n> …" : "") + "\n\n"))
        if let author = thread.user(id: comment.author) {
            draft.insertMention(handle: author.handle, userID: author.id)
        }
        selectedComment = nil
        show("replying to \(thread.user(id: comment.author)?.handle ?? "a comment")")
    }

    static let replyQuoteLines = 3

    // MARK: Saving the draft

    /// Notes a change of the draft: the cached layout is stale and a save is due.
    func draftDidChange() {
        draftRevision &+= 1
        guard saveDraft != nil else { return }
        // Debounced: 0.5 s after the last change, but never more than 2 s after the first
        // unsaved one, so steady typing is saved too.
        let since = draftDirtySince ?? now
        draftDirtySince = since
        draftSaveDue = min(now + Self.draftSaveDelay, since + Self.draftSaveMaximumDelay)
    }

    /// How long after the last edit the draft is saved: a burst of typing is one write.
    static let draftSaveDelay = 0.5
    /// The longest an unsaved change waits while typing goes on.
    static let draftSaveMaximumDelay = 2.0

    /// Saves the draft if a save is due by now (or `force`); a failure keeps it due and says why.
    /// Returns the failure, if the save failed.
    @discardableResult
    func saveDraftIfDue(force: Bool = false) -> Error? {
        guard let due = draftSaveDue, force || now >= due, let saveDraft else { return nil }
        do {
            try saveDraft(draft.isEmpty ? nil : draft.encoded())
            draftSaveDue = nil
            draftDirtySince = nil
            return nil
        } catch {
            draftSaveDue = now + Self.draftSaveRetry
            show("draft not saved (kept in memory): \(error)", error: true)
            return error
        }
    }

    static let draftSaveRetry = 5.0

    /// Restores a saved draft (at start-up).
    public func restoreDraft(_ data: Data) throws {
        let restored = try ComposerDocument(decoding: data)
        draft = restored
        draftSaveDue = nil
    }
}
