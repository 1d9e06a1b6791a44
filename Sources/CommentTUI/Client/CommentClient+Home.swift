import Foundation
import ScrollEngine
import ThreadModel

/// Home on screen, the switcher over any screen, and the keys every screen shares.
extension CommentClient {
    /// The switcher's input while it is open, and the keys of every screen (Alt-H, Ctrl-K, Alt-A,
    /// Alt-N); nil when the event is not the client's (a thread or home takes it).
    func handleClientInput(_ event: InputEvent) -> [AppCommand]? {
        if let switcher { return handleSwitcher(event, switcher) }
        guard case .key(let press) = event, let action = clientAction(for: press) else { return nil }
        switch action {
        case .showHome:
            showHome()
        case .openSwitcher:
            openSwitcher()
        case .openPost:
            guard case .thread(.room(let account, let roomID)) = place, let root = current?.selectedPostRoot else { return nil }
            show(.post(account: account, roomID: roomID, root: root))
        case .leavePost:
            guard case .thread(.post(let account, let roomID, _)) = place else { return nil }
            show(.room(account: account, roomID: roomID))
        case .startVerification:
            startVerification()
        case .nextUnreadThread, .nextMentionThread:
            let mentions = action == .nextMentionThread
            if let key = nextThread(withMentions: mentions) {
                show(key)
            } else {
                say(mentions ? "no thread has a mention of you" : "no other thread has unread comments")
            }
        default:
            return nil
        }
        return []
    }

    /// The client's action for a key, if it is one (the thread on screen decides Ctrl-K).
    private func clientAction(for press: KeyPress) -> KeyAction? {
        if let current { return current.clientAction(for: press) }
        return KeyMap.actions(for: press, in: [.client]).first
    }

    private func handleSwitcher(_ event: InputEvent, _ switcher: ThreadSwitcher) -> [AppCommand] {
        var effect: ThreadSwitcher.Effect?
        switch event {
        case .key(let press):
            let handled = switcher.handle(press)
            // Ctrl-C quits from the switcher too; other keys it does not know are dropped.
            if !handled.taken, KeyMap.actions(for: press, in: [.feed]).first == .quit { return [.quit] }
            effect = handled.effect
        case .mouse(let mouse): effect = switcher.handle(mouse)
        case .paste(let text): switcher.paste(text)
        case .focus, .modeReport, .cursorReport, .deviceAttributes: break
        }
        switch effect {
        case .open(let key)?: show(key)
        case .close?: self.switcher = nil
        case nil: break
        }
        return []
    }

    /// Opens the switcher over the screen, on every thread home lists.
    func openSwitcher() {
        guard let home else { return }
        var current: ThreadKey?
        if case .thread(let key) = place { current = key }
        let switcher = ThreadSwitcher(summaries: home.summaries, current: current)
        switcher.place(over: CellRect(column: 0, row: 0, width: size.columns, height: size.rows))
        self.switcher = switcher
    }

    /// Home's input: its list's keys, then the client's own (quit, redraw, suspend).
    func updateHome(_ event: InputEvent) -> [AppCommand] {
        guard let home else { return [] }
        // A key answers the message; the pointer passing does not.
        if case .key = event { homeMessage = nil }
        if homePage != nil { return updateHomePage(event) }
        switch event {
        case .key(let press):
            let handled = home.handle(press)
            if let effect = handled.effect { carryOut(effect) }
            if handled.taken { return [] }
            switch KeyMap.actions(for: press, in: [.feed]).first {
            case .quit?, .quitOrDeleteForward?: return [.quit]
            case .redrawAll?: return [.redrawAll]
            case .suspend?: return [.suspend]
            case .toggleHelp?: homePage = Pager(.keys, title: "Keys", columns: size.columns, rows: size.rows)
            default: return []
            }
        case .mouse(let mouse):
            if let effect = home.handle(mouse) { carryOut(effect) }
        case .paste(let text):
            home.paste(text)
        case .focus, .modeReport, .cursorReport, .deviceAttributes:
            break
        }
        return []
    }

    /// F1's page over home: its keys scroll it; any other key (F1, Esc, q) closes it.
    private func updateHomePage(_ event: InputEvent) -> [AppCommand] {
        switch event {
        case .key(let press):
            if case .page(let key)? = KeyMap.actions(for: press, in: [.page]).first {
                _ = homePage?.handle(key)
            } else if KeyMap.actions(for: press, in: [.feed]).first == .quit {
                return [.quit]
            } else {
                homePage = nil
            }
        case .mouse(let mouse): _ = homePage?.handle(mouse)
        case .paste: homePage = nil
        case .focus, .modeReport, .cursorReport, .deviceAttributes: break
        }
        return []
    }

    /// Carries out what home asked for.
    func carryOut(_ effect: HomeEffect) {
        switch effect {
        case .open(let key): show(key)
        case .acceptInvite(let key): accept(key)
        case .declineInvite(let key): decline(key)
        case .leave(let key): leave(key)
        case .message(let text): say(text)
        }
    }

    /// A line in the status bar, wherever the reader is.
    func say(_ text: String, error: Bool = false) {
        if let current { current.showMessage(text, error: error) } else { homeMessage = (text, error) }
    }

    /// Home's frame: the list over the whole screen but the status bar.
    func renderHome() -> Frame {
        var buffer = CellBuffer(columns: size.columns, rows: size.rows)
        guard let home, size.rows >= 3, size.columns >= 10 else {
            NoticeView.drawTooSmall(into: &buffer)
            return Frame(buffer: buffer, cursor: nil)
        }
        if var page = homePage {
            page.resize(columns: size.columns, rows: size.rows)
            homePage = page
            PagerView(pager: page, ownUserID: "", message: nil, isError: false).draw(into: &buffer)
            return Frame(buffer: buffer, cursor: nil)
        }
        home.place(in: CellRect(column: 0, row: 0, width: size.columns, height: size.rows - 1))
        HomeView(list: home, now: wallTime).draw(into: &buffer)
        let status = homeMessage ?? (homeStatus, false)
        buffer.fill(row: size.rows - 1, from: 0, to: size.columns, style: status.isError ? Theme.statusError : Theme.statusBar)
        buffer.write(" " + status.text, column: 0, row: size.rows - 1, style: status.isError ? Theme.statusError : Theme.statusBar,
                     cuttingAt: size.columns)
        var frame = Frame(buffer: buffer, cursor: nil)
        if let switcher { drawSwitcher(switcher, into: &frame) }
        if settings.colorCount == 0 { frame.buffer.restyleAll(Theme.monochrome) }
        return frame
    }

    /// What home's status bar says when nothing else is to be said: the accounts' connections.
    var homeStatus: String {
        let connections = accountConnections.map { "\($0.account) \($0.state.word)" }
        let keys = "Enter open · Ctrl-K switch · F1 keys · Ctrl-C quit"
        return (connections + [keys]).joined(separator: " · ")
    }

    /// Draws the switcher over a frame; the caret stays hidden under it.
    func drawSwitcher(_ switcher: ThreadSwitcher, into frame: inout Frame) {
        switcher.place(over: CellRect(column: 0, row: 0, width: size.columns, height: size.rows))
        ThreadSwitcherView(switcher: switcher).draw(into: &frame.buffer)
        frame.cursor = nil
        frame.scroll = nil
    }
}
