import ThreadModel

extension KeyMap {
    /// The table. Within a context the first matching row wins (contexts are tried in the order
    /// `CommentApp.keyContexts` gives); the F1 page lists help lines in this order, each once.
    static let bindings: [KeyBinding] = {
        let send = KeyHelp("Enter · Alt-Enter, Ctrl-J", "send (empty: retry, open post) · new line")
        // One row for the reader's own comments, sent (edit, delete after y/n) or not (take back, discard).
        let own = KeyHelp("Alt-C, Alt-W · Alt-T, Alt-X", "yours: edit, delete · unsent: edit, drop")
        let quit = KeyHelp("Ctrl-C, F10, Ctrl-D (empty)", "quit (the draft is kept)")
        // Pages and rows share a line, and so do Ctrl-X's two uses, so that with home's keys
        // the page still fits 80×24.
        let page = KeyHelp("PgUp/Dn · Ctrl-Up/Dn, Shift-Up/Dn", "feed by a page (or a list's) · a row")
        let row = page
        let ends = KeyHelp("Ctrl-Home / Ctrl-End", "feed to the post / the newest")
        let find = KeyHelp("Alt-U · Ctrl-S", "first unread · search (Enter older, Esc)")
        let select = KeyHelp("Alt-Up/Down · Alt-J · Esc", "select · to what it answers · clear, back")
        // Alt-K's picker names its own keys in its bar (1-9, an emoji or :shortcode: then Enter, Esc).
        let act = KeyHelp("Alt-S · Alt-E · Alt-O · Alt-R/K", "spoilers · expand · link · reply/react")
        let react = act
        let move = KeyHelp("Ctrl-A/E, Ctrl-B/F, Alt-B/F", "line start/end, char, word")
        let arrows = KeyHelp("arrows, Home/End", "move in the draft (Up/Down by row)")
        let kill = KeyHelp("Ctrl-K/U/W, Alt-D, Ctrl-Y", "kill and yank")
        let selectText = KeyHelp("Shift-Left/Right, Shift-Home/End", "select text in the draft")
        let undo = KeyHelp("Ctrl-_ · Alt-_ · Ctrl-L", "undo · redo · redraw")
        let formats = KeyHelp("Ctrl-X then b i s c p, Ctrl-E", "bold italic strike code spoiler, $EDITOR")
        let editor = formats
        let mentions = KeyHelp("@ · Up/Down · Tab, Enter · Esc", "mention list · move · insert · close")
        let pages = KeyHelp("Up/Down, PgUp/PgDn, Space, Home/End", "scroll F1 or the post · Esc, q close")
        // One line for the client's own keys, so the page still fits 80×24.
        let panels = KeyHelp("F1–F4 · Ctrl-Z", "help, reactors, events, members · suspend")
        let threads = KeyHelp("Alt-H · Ctrl-K · Alt-A/N · Alt-V", "home · switcher · next unread/@ · verify")
        // Home's and the switcher's keys (Esc clears the filter or closes, as in a search).
        let homeKeys = KeyHelp("type · arrows · Enter · Alt-Y/X/L", "filter · move · open · invite y/n · leave")
        let homeRoom = homeKeys
        let anyCharacter = KeyPattern.anyCharacter([])

        return [
            // The client and the feed: tried before the composer.
            KeyBinding(.feed, [.key(.enter)], .send, send),
            KeyBinding(.feed, [.alt("t")], .takeBackNotSent, own),
            KeyBinding(.feed, [.alt("x")], .discardNotSent, own),
            KeyBinding(.feed, [.ctrl("c"), .key(.function(10))], .quit, quit),
            KeyBinding(.feed, [.ctrl("d")], .quitOrDeleteForward, quit),
            KeyBinding(.feed, [.key(.pageUp)], .scrollFeed(.pageUp), page),
            KeyBinding(.feed, [.key(.pageDown)], .scrollFeed(.pageDown), page),
            KeyBinding(.feed, [.key(.up, .ctrl), .key(.up, .shift)], .scrollFeed(.rowUp), row),
            KeyBinding(.feed, [.key(.down, .ctrl), .key(.down, .shift)], .scrollFeed(.rowDown), row),
            KeyBinding(.feed, [.key(.home, .ctrl)], .feedToTop, ends),
            KeyBinding(.feed, [.key(.end, .ctrl)], .feedToBottom, ends),
            KeyBinding(.feed, [.alt("u")], .firstUnread, find),
            KeyBinding(.feed, [.ctrl("s")], .search, find),
            KeyBinding(.feed, [.key(.up, .alt)], .selectComment(step: -1), select),
            KeyBinding(.feed, [.key(.down, .alt)], .selectComment(step: 1), select),
            KeyBinding(.feed, [.key(.escape)], .dismiss, select),
            KeyBinding(.feed, [.alt("s")], .toggleSpoilers, act),
            KeyBinding(.feed, [.alt("e")], .toggleExpanded, act),
            KeyBinding(.feed, [.alt("o")], .openLink, act),
            KeyBinding(.feed, [.alt("r")], .reply, act),
            KeyBinding(.feed, [.alt("c")], .editOwnComment, own),
            KeyBinding(.feed, [.alt("w")], .deleteOwnComment, own),
            KeyBinding(.feed, [.alt("j")], .jumpToReplied, select),
            KeyBinding(.feed, [.alt("k")], .openReactionPicker, react),

            // The reaction picker (Alt-K): typing goes to it; keys not bound here act as usual.
            KeyBinding(.reactionPicker, [.key(.escape)], .closeReactionPicker, react),
            KeyBinding(.reactionPicker, [.key(.enter)], .chooseReaction, react),
            KeyBinding(.reactionPicker, [.key(.backspace)], .deleteReactionCharacter, react),
            KeyBinding(.reactionPicker, [anyCharacter, .anyCharacter(.shift)], .typeIntoReactionPicker, react),

            // The composer: readline editing, selection, undo, Ctrl-X.
            KeyBinding(.composer, [anyCharacter], .edit(.typeCharacter), nil),
            KeyBinding(.composer, [.key(.enter, .alt), .ctrl("j")], .edit(.newLine), send),
            KeyBinding(.composer, [.key(.tab)], .edit(.tab), nil),
            KeyBinding(.composer, [.ctrl("a")], .edit(.moveToLineStart(extending: false)), move),
            KeyBinding(.composer, [.ctrl("e")], .edit(.moveToLineEnd(extending: false)), move),
            KeyBinding(.composer, [.ctrl("b")], .edit(.moveCharacter(by: -1, extending: false)), move),
            KeyBinding(.composer, [.ctrl("f")], .edit(.moveCharacter(by: 1, extending: false)), move),
            KeyBinding(.composer, [.alt("b")], .edit(.moveWord(forward: false, extending: false)), move),
            KeyBinding(.composer, [.alt("f")], .edit(.moveWord(forward: true, extending: false)), move),
            // Home / End: the feed's ends on an empty composer, else the line's (see `KeyAction`).
            KeyBinding(.feed, [.key(.home)], .homeOrFeedTop, arrows),
            KeyBinding(.feed, [.key(.end)], .endOrFeedBottom, arrows),
            KeyBinding(.composer, [.key(.home)], .edit(.moveToLineStart(extending: false)), nil),
            KeyBinding(.composer, [.key(.end)], .edit(.moveToLineEnd(extending: false)), nil),
            KeyBinding(.composer, [.key(.left)], .edit(.moveCharacter(by: -1, extending: false)), arrows),
            KeyBinding(.composer, [.key(.right)], .edit(.moveCharacter(by: 1, extending: false)), arrows),
            KeyBinding(.composer, [.key(.left, .ctrl)], .edit(.moveWord(forward: false, extending: false)), arrows),
            KeyBinding(.composer, [.key(.right, .ctrl)], .edit(.moveWord(forward: true, extending: false)), arrows),
            KeyBinding(.composer, [.key(.up)], .edit(.moveRow(by: -1)), arrows),
            KeyBinding(.composer, [.key(.down)], .edit(.moveRow(by: 1)), arrows),
            KeyBinding(.composer, [.key(.backspace)], .edit(.deleteBackward), nil),
            KeyBinding(.composer, [.key(.delete)], .edit(.deleteForward), nil),
            KeyBinding(.composer, [.ctrl("k")], .edit(.killToLineEnd), kill),
            KeyBinding(.composer, [.ctrl("u")], .edit(.killToLineStart), kill),
            KeyBinding(.composer, [.ctrl("w"), .key(.backspace, .alt)], .edit(.killWordBackward), kill),
            KeyBinding(.composer, [.alt("d")], .edit(.killWordForward), kill),
            KeyBinding(.composer, [.ctrl("y")], .edit(.yank), kill),
            KeyBinding(.composer, [.key(.left, .shift)], .edit(.moveCharacter(by: -1, extending: true)), selectText),
            KeyBinding(.composer, [.key(.right, .shift)], .edit(.moveCharacter(by: 1, extending: true)), selectText),
            KeyBinding(.composer, [.key(.left, [.ctrl, .shift])], .edit(.moveWord(forward: false, extending: true)), selectText),
            KeyBinding(.composer, [.key(.right, [.ctrl, .shift])], .edit(.moveWord(forward: true, extending: true)), selectText),
            KeyBinding(.composer, [.key(.home, .shift)], .edit(.moveToLineStart(extending: true)), selectText),
            KeyBinding(.composer, [.key(.end, .shift)], .edit(.moveToLineEnd(extending: true)), selectText),
            KeyBinding(.composer, [.ctrl("_"), .ctrl("/")], .edit(.undo), undo),
            KeyBinding(.composer, [.alt("_")], .edit(.redo), undo),
            KeyBinding(.composer, [.ctrl("x")], .startChord, formats),

            // After Ctrl-X: a format or the editor; any other key is reported unbound.
            KeyBinding(.chord, [.character("b")], .format(.bold), formats),
            KeyBinding(.chord, [.character("i")], .format(.italic), formats),
            KeyBinding(.chord, [.character("s")], .format(.strikethrough), formats),
            KeyBinding(.chord, [.character("c")], .format(.code), formats),
            KeyBinding(.chord, [.character("p")], .format(.spoiler), formats),
            KeyBinding(.chord, [.ctrl("e")], .openEditor, editor),
            KeyBinding(.chord, [.key(.escape), .ctrl("g")], .cancelChord, nil),

            // The open mention list takes its keys before the composer.
            KeyBinding(.mentionList, [.key(.up)], .moveInMentionList(.up), mentions),
            KeyBinding(.mentionList, [.key(.down)], .moveInMentionList(.down), mentions),
            KeyBinding(.mentionList, [.key(.pageUp)], .moveInMentionList(.pageUp), page),
            KeyBinding(.mentionList, [.key(.pageDown)], .moveInMentionList(.pageDown), page),
            KeyBinding(.mentionList, [.key(.tab), .key(.enter)], .insertMention, mentions),
            KeyBinding(.mentionList, [.key(.escape)], .closeMentionList, mentions),

            // Searching (Ctrl-S): typing goes to the query; keys not bound here act as usual.
            KeyBinding(.search, [.key(.escape)], .leaveSearch, find),
            KeyBinding(.search, [.key(.enter), .ctrl("s")], .searchNext, find),
            KeyBinding(.search, [.key(.backspace)], .deleteSearchCharacter, find),
            KeyBinding(.search, [.ctrl("w"), .key(.backspace, .alt)], .deleteSearchWord, find),
            KeyBinding(.search, [.ctrl("u")], .clearSearch, find),
            KeyBinding(.search, [anyCharacter, .anyCharacter(.shift)], .typeIntoSearch, find),

            // A page over the screen (F1's, the post's): its keys, then the client's own
            // (`worksOverPage`); any other key only closes it. Nothing is typed under a page.
            KeyBinding(.page, [.key(.up), .key(.up, .ctrl), .key(.up, .shift)], .page(.rowUp), pages),
            KeyBinding(.page, [.key(.down), .key(.down, .ctrl), .key(.down, .shift)], .page(.rowDown), pages),
            KeyBinding(.page, [.key(.pageUp)], .page(.pageUp), pages),
            KeyBinding(.page, [.key(.pageDown), .character(" ")], .page(.pageDown), pages),
            KeyBinding(.page, [.key(.home), .key(.home, .ctrl)], .page(.top), pages),
            KeyBinding(.page, [.key(.end), .key(.end, .ctrl)], .page(.bottom), pages),
            KeyBinding(.page, [.key(.escape), .character("q")], .closePage, pages),
            KeyBinding(.page, [.alt("s")], .page(.toggleSpoilers), act),
            KeyBinding(.page, [.alt("o")], .page(.openLink), act),

            // The client's threads, on every screen: the coordinator tries these first (Ctrl-K
            // in a thread only with the caret at the draft's end: `CommentApp.clientAction`).
            KeyBinding(.client, [.alt("h")], .showHome, threads),
            KeyBinding(.client, [.ctrl("k")], .openSwitcher, threads),
            KeyBinding(.client, [.alt("a")], .nextUnreadThread, threads),
            KeyBinding(.client, [.alt("n")], .nextMentionThread, threads),
            KeyBinding(.client, [.alt("v")], .startVerification, threads),

            // Home: typing filters the list; the arrows move the selection; Enter opens.
            KeyBinding(.home, [.key(.up)], .home(.up), homeKeys),
            KeyBinding(.home, [.key(.down)], .home(.down), homeKeys),
            KeyBinding(.home, [.key(.enter)], .home(.open), homeKeys),
            KeyBinding(.home, [.key(.escape)], .home(.cancel), nil),
            KeyBinding(.home, [anyCharacter, .anyCharacter(.shift)], .home(.type), homeKeys),
            KeyBinding(.home, [.key(.pageUp)], .home(.pageUp), page),
            KeyBinding(.home, [.key(.pageDown)], .home(.pageDown), page),
            KeyBinding(.home, [.key(.home), .key(.home, .ctrl)], .home(.first), nil),
            KeyBinding(.home, [.key(.end), .key(.end, .ctrl)], .home(.last), nil),
            KeyBinding(.home, [.key(.backspace)], .home(.deleteFilterCharacter), nil),
            KeyBinding(.home, [.ctrl("w"), .key(.backspace, .alt)], .home(.deleteFilterWord), nil),
            KeyBinding(.home, [.ctrl("u")], .home(.clearFilter), nil),
            KeyBinding(.home, [.alt("y")], .home(.acceptInvite), homeRoom),
            KeyBinding(.home, [.alt("x")], .home(.declineInvite), homeRoom),
            KeyBinding(.home, [.alt("l")], .home(.leave), homeRoom),

            // The switcher (Ctrl-K): the same keys over its matches; Esc closes it.
            KeyBinding(.switcher, [.key(.up), .ctrl("p"), .key(.backTab)], .switcher(.up), homeKeys),
            KeyBinding(.switcher, [.key(.down), .ctrl("n"), .key(.tab)], .switcher(.down), homeKeys),
            KeyBinding(.switcher, [.key(.enter)], .switcher(.open), homeKeys),
            KeyBinding(.switcher, [.key(.escape)], .switcher(.cancel), nil),
            KeyBinding(.switcher, [anyCharacter, .anyCharacter(.shift)], .switcher(.type), homeKeys),
            KeyBinding(.switcher, [.key(.pageUp)], .switcher(.pageUp), page),
            KeyBinding(.switcher, [.key(.pageDown)], .switcher(.pageDown), page),
            KeyBinding(.switcher, [.key(.backspace)], .switcher(.deleteFilterCharacter), nil),
            KeyBinding(.switcher, [.ctrl("w"), .key(.backspace, .alt)], .switcher(.deleteFilterWord), nil),
            KeyBinding(.switcher, [.ctrl("u")], .switcher(.clearFilter), nil),

            // The verification panel: its bar names these keys, so the F1 page need not.
            KeyBinding(.verification, [.character("y"), .character("Y")], .verification(.yes), nil),
            KeyBinding(.verification, [.character("n"), .character("N")], .verification(.no), nil),
            KeyBinding(.verification, [.key(.enter)], .verification(.proceed), nil),
            KeyBinding(.verification, [.key(.escape), .ctrl("g")], .verification(.cancel), nil),

            // The client: panels, redraw, suspend (feed context, listed last on the F1 page).
            KeyBinding(.feed, [.key(.function(1))], .toggleHelp, panels),
            KeyBinding(.feed, [.key(.function(2))], .toggleHitTestInspector, panels),
            KeyBinding(.feed, [.key(.function(3))], .toggleScrollEventPanel, panels),
            KeyBinding(.feed, [.key(.function(4))], .showMembers, panels),
            KeyBinding(.feed, [.ctrl("l")], .redrawAll, undo),
            KeyBinding(.feed, [.ctrl("z")], .suspend, panels),
            KeyBinding(.feed, [.key(.function(12))], .crashTest, nil),
        ]
    }()
}
