import Foundation

/// Undo and redo stacks of (text, selection) snapshots.
///
/// Snapshots are whole `AttributedString`s: copy-on-write shares their storage, so a step costs
/// little until the text diverges, and restoring never has to replay edits.
struct ComposerHistory: Sendable {
    struct Snapshot: Sendable {
        var text: AttributedString
        var selection: Range<AttributedString.Index>
        var caretAtStart: Bool
    }

    enum EditKind {
        /// One typed character: consecutive ones make one undo step.
        case typing(Character)
        case other
    }

    /// How many undo steps are kept.
    static let limit = 200

    private(set) var undoStack: [Snapshot] = []
    private(set) var redoStack: [Snapshot] = []
    /// Whether the next typed character joins the last undo step.
    private var coalescing = false
    /// Inside `ComposerDocument.asOneEdit`: the step was recorded when it began.
    var isGrouping = false

    /// Records the state before an edit, unless the edit continues a run of typing.
    mutating func record(_ before: Snapshot, kind: EditKind) {
        redoStack.removeAll()
        guard !isGrouping else { return }
        switch kind {
        case .typing(let c):
            if !coalescing { push(before) }
            // A space or newline ends the word being typed: it joins the step and closes it.
            coalescing = !c.isWhitespace
        case .other:
            push(before)
            coalescing = false
        }
    }

    mutating func breakCoalescing() { coalescing = false }

    private mutating func push(_ snapshot: Snapshot) {
        undoStack.append(snapshot)
        if undoStack.count > Self.limit { undoStack.removeFirst(undoStack.count - Self.limit) }
    }

    mutating func undo(current: Snapshot) -> Snapshot? {
        guard let previous = undoStack.popLast() else { return nil }
        redoStack.append(current)
        coalescing = false
        return previous
    }

    mutating func redo(current: Snapshot) -> Snapshot? {
        guard let next = redoStack.popLast() else { return nil }
        undoStack.append(current)
        coalescing = false
        return next
    }
}

extension ComposerDocument {
    var snapshot: ComposerHistory.Snapshot {
        ComposerHistory.Snapshot(text: text, selection: selection, caretAtStart: caretAtStart)
    }

    private mutating func restore(_ snapshot: ComposerHistory.Snapshot) {
        text = snapshot.text
        selection = snapshot.selection
        caretAtStart = snapshot.caretAtStart
        typingFormats = nil
    }

    /// Whether there is an edit to undo.
    var canUndo: Bool { !history.undoStack.isEmpty }

    /// Whether there is an undone edit to redo.
    var canRedo: Bool { !history.redoStack.isEmpty }

    /// Restores the text and selection from before the last edit (or run of typing).
    public mutating func undo() {
        if let previous = history.undo(current: snapshot) { restore(previous) }
    }

    /// Makes the edits `body` does one undo step (a reply's quote and its author's mention).
    public mutating func asOneEdit(_ body: (inout ComposerDocument) -> Void) {
        history.record(snapshot, kind: .other)
        let outer = history.isGrouping
        history.isGrouping = true
        body(&self)
        history.isGrouping = outer
    }

    /// Re-applies the last undone edit.
    public mutating func redo() {
        if let next = history.redo(current: snapshot) { restore(next) }
    }
}
