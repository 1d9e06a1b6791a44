import ScrollEngine

/// Home's keys and mouse: the key map's `.home` context picks a command; a question waiting
/// for y/n takes the next key whatever it is.
extension HomeList {
    /// A key on home: whether home took it, and what it asks of the coordinator. A key home
    /// does not bind (Ctrl-C, F1, Alt-H) is not taken: the coordinator tries its own.
    func handle(_ press: KeyPress) -> (taken: Bool, effect: HomeEffect?) {
        if let question {
            self.question = nil
            // y or Enter does it; anything else (n, Esc, a stray key) keeps the thread.
            guard press == KeyPress(.character("y")) || press == KeyPress(.character("Y"), .shift)
                    || press == KeyPress(.character("Y")) || press == KeyPress(.enter) else {
                return (true, .message("kept \(question.name)"))
            }
            switch question.kind {
            case .leave: return (true, .leave(question.key))
            case .decline: return (true, .declineInvite(question.key))
            }
        }
        for action in KeyMap.actions(for: press, in: [.home]) {
            guard case .home(let command) = action else { continue }
            return (true, perform(command, typed: press.character))
        }
        return (false, nil)
    }

    /// Carries out one of home's commands; `typed` is the character of a typing key.
    func perform(_ command: HomeCommand, typed: Character? = nil) -> HomeEffect? {
        switch command {
        case .up: moveSelection(by: -1)
        case .down: moveSelection(by: 1)
        case .pageUp: moveSelection(by: -pageRows)
        case .pageDown: moveSelection(by: pageRows)
        case .first: moveSelection(by: -rows.count)
        case .last: moveSelection(by: rows.count)
        case .open: return openSelected()
        case .acceptInvite:
            guard let selected else { return nil }
            guard selected.invite != nil else { return .message("\(selected.name) is no invite") }
            return .acceptInvite(selected.key)
        case .declineInvite:
            guard let selected else { return nil }
            guard selected.invite != nil else { return .message("\(selected.name) is no invite") }
            question = HomeQuestion(kind: .decline, key: selected.key, name: selected.name)
        case .leave:
            guard let selected else { return nil }
            if selected.invite != nil {
                question = HomeQuestion(kind: .decline, key: selected.key, name: selected.name)
            } else if selected.key.account == nil {
                return .message("only a room can be left")
            } else if selected.key.postRoom != nil {
                return .message("a post is left with its room")
            } else {
                question = HomeQuestion(kind: .leave, key: selected.key, name: selected.name)
            }
        case .deleteFilterCharacter: editFilter { _ = $0.popLast() }
        case .deleteFilterWord: editFilter(FeedSearch.deleteLastWord)
        case .clearFilter: editFilter { $0.removeAll() }
        case .cancel: editFilter { $0.removeAll() }
        case .type:
            guard let typed else { return nil }
            editFilter { $0.append(typed) }
        }
        return nil
    }

    /// Enter or a click: open the selected thread, or accept it when it is an invite.
    private func openSelected() -> HomeEffect? {
        guard let selected else { return filter.isEmpty ? nil : .message("no thread matches \(filter)") }
        return selected.invite != nil ? .acceptInvite(selected.key) : .open(selected.key)
    }

    /// A mouse event on home: the wheel and drags scroll the rows (the selection stays on
    /// screen), a click on a row selects and opens it (a press that stopped a glide only stops it).
    func handle(_ mouse: MouseEvent) -> HomeEffect? {
        let list = listRect
        switch (mouse.button, mouse.action) {
        case (.wheelUp, _):
            model.handle(.wheel(notches: -1), at: now)
            keepSelectionOnScreen()
        case (.wheelDown, _):
            model.handle(.wheel(notches: 1), at: now)
            keepSelectionOnScreen()
        case (.left, .press) where list.contains(column: mouse.column, row: mouse.row):
            press = (mouse.row, row(atScreenRow: mouse.row), false, model.phase == .decelerating)
            model.handle(.press(row: mouse.row - list.row), at: now)
        case (.left, .drag):
            guard let held = press else { return nil }
            press?.moved = held.moved || mouse.row != held.row
            model.handle(.drag(row: mouse.row - list.row), at: now)
            keepSelectionOnScreen()
        case (.left, .release), (.none, .release):
            guard let held = press else { return nil }
            press = nil
            model.handle(.release, at: now)
            guard !held.moved, !held.stoppedGlide, let item = held.item, row(atScreenRow: mouse.row) == item else { return nil }
            question = nil
            select(summary(atRow: item).key)
            return openSelected()
        default: break
        }
        return nil
    }
}
