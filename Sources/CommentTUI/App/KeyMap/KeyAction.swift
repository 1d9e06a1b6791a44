import ScrollEngine
import ThreadModel

/// What a key asks of the app; the key map binds keys to these, the coordinator carries them out.
enum KeyAction: Equatable {
    // The client
    case quit
    /// Ctrl-D: quit on an empty composer, else delete forward.
    case quitOrDeleteForward
    case suspend
    case redrawAll
    case toggleHelp
    /// Esc, q: closes the page that covers the screen (F1's, the post's).
    case closePage
    case toggleHitTestInspector
    case toggleScrollEventPanel
    /// F4: the members and their devices' trust (`CommentApp+Members`).
    case showMembers
    /// F12 with `COMMENT_TUI_CRASH_TEST=1`: a deliberate crash, for the tests of the crash path.
    case crashTest
    /// Esc: clear the selection, else the message.
    case dismiss
    /// Enter on a selected post's root with an empty draft: open the post (the client's; not
    /// bound in the map: Enter is `send` there, `CommentApp.postAction(for:)` tells them apart).
    case openPost
    /// Esc in a post with nothing else to leave: back to its room (the client's, as `openPost`).
    case leavePost

    // The feed
    case scrollFeed(ScrollKey)
    case feedToTop
    case feedToBottom
    /// Home / End: the feed's top or bottom on an empty composer, else the line's start or end.
    case homeOrFeedTop
    case endOrFeedBottom
    case firstUnread
    case selectComment(step: Int)
    case toggleSpoilers
    case toggleExpanded
    case openLink
    case reply
    /// Alt-C: the selected comment of the reader's into the composer to edit (Enter sends, Esc leaves).
    case editOwnComment
    /// Alt-W: the selected comment of the reader's deleted, after a y/n.
    case deleteOwnComment
    /// To the comment the selected reply answers.
    case jumpToReplied
    case search
    /// Alt-K: the reaction picker for the selected comment.
    case openReactionPicker

    // The reaction picker (`ReactionPicker`)
    /// Enter: the typed emoji or `:shortcode:`, else the first choice.
    case chooseReaction
    /// A digit picks a choice while nothing is typed; other characters are typed.
    case typeIntoReactionPicker
    case deleteReactionCharacter
    case closeReactionPicker

    // A page over the screen (F1, the post)
    case page(PageKey)

    // The composer
    case send
    /// Alt-T: the comment not sent (selected, else the oldest) back into the composer.
    case takeBackNotSent
    /// Alt-X: the comment not sent (selected, else the oldest) discarded.
    case discardNotSent
    case edit(ComposerEdit)
    /// Ctrl-X: the next key picks a format or the editor.
    case startChord
    case format(ComposerFormat)
    case openEditor
    case cancelChord

    // The mention list
    case moveInMentionList(MentionListStep)
    case insertMention
    case closeMentionList

    // Searching
    case searchNext
    case leaveSearch
    case deleteSearchCharacter
    /// Ctrl-W in the query: its last word goes (readline).
    case deleteSearchWord
    /// Ctrl-U in the query: all of it goes.
    case clearSearch
    /// A character typed into the search query.
    case typeIntoSearch

    // Home and the Ctrl-K switcher (their models carry these out: `HomeList`, `ThreadSwitcher`)
    case home(HomeCommand)
    case switcher(HomeCommand)

    // The client's threads, on every screen (the coordinator carries these out)
    /// Alt-H: home.
    case showHome
    /// Ctrl-K: the switcher; in a thread only with the caret at the draft's end (else Ctrl-K
    /// kills to the line's end as readline's does: `CommentApp.clientAction(for:)` decides).
    case openSwitcher
    /// Alt-A: the next thread with comments not read.
    case nextUnreadThread
    /// Alt-N: the next thread with a mention of the reader.
    case nextMentionThread

    /// Alt-V: verify the selected comment's author, or (nothing selected, or at home) this
    /// device with the reader's other devices.
    case startVerification
    /// A key of the verification panel (`VerificationPanel` decides what it does per stage).
    case verification(VerificationCommand)
}

/// A move of the mention list's highlight.
enum MentionListStep: Equatable {
    case up, down, pageUp, pageDown
}

/// An editing command of the composer.
enum ComposerEdit: Equatable {
    /// A typed character (the key's own).
    case typeCharacter
    case newLine
    case tab
    case deleteBackward, deleteForward, killWordBackward, killWordForward, killToLineEnd, killToLineStart, yank
    case moveCharacter(by: Int, extending: Bool)
    case moveWord(forward: Bool, extending: Bool)
    case moveToLineStart(extending: Bool)
    case moveToLineEnd(extending: Bool)
    /// Up / Down: a row of a draft of several rows, else its start or end.
    case moveRow(by: Int)
    case undo, redo
}

extension KeyAction {
    /// The page's own keys and the client's (quitting, redrawing, suspending, the panels), which
    /// work while a page covers the screen; every other key only closes the page.
    var worksOverPage: Bool {
        switch self {
        case .quit, .suspend, .redrawAll, .toggleHelp, .closePage, .page, .toggleHitTestInspector, .toggleScrollEventPanel, .showMembers, .crashTest:
            return true
        default:
            return false
        }
    }
}
