import ScrollEngine
import ThreadModel

/// Keys and the mouse: the key map picks an action in the active contexts, a feature carries it out.
extension CommentApp {
    /// The contexts a key is read in now, most specific first (a Ctrl-X chord reads its own; see `handleKey`).
    var keyContexts: [KeyContext] {
        // The layer on top takes the keys: a page covers everything (see `handleKey`).
        if overlays.page != nil { return [.page, .feed] }
        var contexts: [KeyContext] = []
        if reactionPicker != nil { contexts.append(.reactionPicker) }
        if feed.search != nil { contexts.append(.search) }
        if mentions.isOpen { contexts.append(.mentionList) }
        return contexts + [.feed, .composer]
    }

    /// Carries out a key; returns the loop's commands and how the draft was edited by typing.
    func handleKey(_ press: KeyPress) -> ([AppCommand], DraftEdit?) {
        if composer.isInChord {
            if feed.search != nil, let action = KeyMap.actions(for: press, in: [.search]).first {
                return (perform(action, press: press) ?? [], nil)
            }
            return (apply(composer.finishChord(KeyMap.actions(for: press, in: [.chord]).first, press: press)), nil)
        }
        if overlays.page != nil {
            // Modal: the page's keys and the client's own work; any other closes the page and
            // does nothing else (it would act on a list, search or draft the page hides).
            if let action = KeyMap.actions(for: press, in: keyContexts).first, action.worksOverPage {
                return (perform(action, press: press) ?? [], nil)
            }
            overlays.closePage()
            return ([], nil)
        }
        if reactionPicker != nil {
            // Modal too: the draft under it is hidden, so a key the picker does not take must not
            // edit it; the client's own keys work, any other closes the picker.
            if let action = KeyMap.actions(for: press, in: [.reactionPicker]).first
                ?? KeyMap.actions(for: press, in: keyContexts).first(where: \.worksOverPage) {
                return (perform(action, press: press) ?? [], nil)
            }
            reactionPicker = nil
            return ([], nil)
        }
        for action in KeyMap.actions(for: press, in: keyContexts) {
            if case .edit(let edit) = action {
                return ([], composer.apply(edit, typed: press.character, handles: comments.handleID))
            }
            if let commands = perform(action, press: press) { return (commands, nil) }
        }
        overlays.show("\(press) is not bound (F1 lists the keys)")
        return ([], nil)
    }

    /// Carries out an action; nil when it declines the key (Enter with no one to insert sends).
    private func perform(_ action: KeyAction, press: KeyPress) -> [AppCommand]? {
        switch action {
        case .quit: return [.quit]
        case .quitOrDeleteForward:
            if composer.draft.isEmpty { return [.quit] }
            composer.apply(.deleteForward, typed: nil, handles: comments.handleID)
        case .suspend: return [.suspend]
        case .redrawAll: return [.redrawAll]
        case .toggleHelp: toggleKeyPage()
        case .closePage: overlays.closePage()
        case .page(let key): apply(overlays.page?.handle(key))
        // The inspector on, F2 turns it off first (else a comment with reactions would keep it on).
        case .toggleHitTestInspector: if overlays.showsHitTest || !showReactors() { overlays.toggleHitTest() }
        case .toggleScrollEventPanel: overlays.toggleScrollEvents()
        case .showMembers: toggleMembers()
        case .crashTest:
            guard allowsCrashTest else { return nil }
            fatalError("crash test requested with F12")
        case .dismiss:
            if leaveEditing() { break }
            if !feed.clearSelection() { overlays.clearMessage() }
        case .scrollFeed(let key): feed.handle(.key(key))
        case .feedToTop: seekTop()
        case .feedToBottom: feed.scrollToBottom()
        case .homeOrFeedTop:
            guard composer.draft.isEmpty else { return nil }
            seekTop()
        case .endOrFeedBottom:
            guard composer.draft.isEmpty else { return nil }
            feed.scrollToBottom()
        case .firstUnread: apply(feed.scrollToFirstUnread())
        case .selectComment(let step): feed.moveSelection(by: step)
        case .toggleSpoilers: apply(feed.toggleSpoilers())
        case .toggleExpanded: apply(feed.toggleExpandedSelection())
        case .openLink: apply(feed.openSelectedLink())
        case .reply: if !isBusyEditing() { startReply() }
        case .editOwnComment: startEditingSelected()
        case .deleteOwnComment: if !isBusyEditing() { askToDeleteSelected() }
        case .jumpToReplied: jumpToSelectedReply()
        case .search:
            mentions.close()  // the list would cover the matches
            apply(feed.startSearch())
        case .openReactionPicker: openReactionPicker()
        case .chooseReaction: chooseReaction()
        case .typeIntoReactionPicker:
            guard let character = press.character else { return nil }
            typeIntoReactionPicker(character)
        case .deleteReactionCharacter: reactionPicker?.deleteBackward()
        case .closeReactionPicker: reactionPicker = nil
        case .send: send()
        case .takeBackNotSent: if !isBusyEditing() { takeBackNotSent() }
        case .discardNotSent: discardNotSent()
        case .edit: return nil    // carried out by handleKey, which passes the edit on to the mention list
        case .startChord: return apply(composer.startChord())
        case .format, .openEditor, .cancelChord: return nil    // only after Ctrl-X (see handleKey)
        case .moveInMentionList(let step): mentions.move(step)
        case .insertMention:
            guard let pick = mentions.takeHighlighted() else { return nil }
            composer.insertMention(pick.user, replacingCharactersBeforeCaret: pick.replacing)
        case .closeMentionList: mentions.close()
        case .searchNext: apply(feed.searchNext())
        case .leaveSearch:
            feed.leaveSearch()
            overlays.clearMessage()
        case .deleteSearchCharacter: apply(feed.editSearch { _ = $0.popLast() })
        case .deleteSearchWord: apply(feed.editSearch(FeedSearch.deleteLastWord))
        case .clearSearch: apply(feed.editSearch { $0.removeAll() })
        case .typeIntoSearch:
            guard let character = press.character else { return nil }
            apply(feed.editSearch { $0.append(character) })
        case .home, .switcher, .verification: return nil    // the client's panels, never a thread's context
        case .showHome, .openSwitcher, .nextUnreadThread, .nextMentionThread, .startVerification, .openPost, .leavePost:
            return nil    // the coordinator's (`clientAction(for:)`); a thread alone has no other
        }
        return []
    }

    /// Carries out what the composer asked for.
    private func apply(_ effect: ComposerEffect) -> [AppCommand] {
        switch effect {
        case .message(let text, let isError): overlays.show(text, error: isError)
        case .clearMessage: overlays.clearMessage()
        case .openEditor(let text): return [.editExternally(text)]
        }
        return []
    }

    /// Alt-R: starts a reply to the selected comment, before whatever the draft holds.
    private func startReply() {
        guard let comment = feed.takeSelectedForReply() else { return apply(FeedModel.selectFirst) }
        let author = comments.user(id: comment.author)
        composer.insertReply(to: comment, author: author)
        replyingTo = comment.id
        overlays.show("replying to \(author?.handle ?? "a comment")")
    }

    /// A mouse event: the list's rows take the wheel and clicks (its transparent inset lets them
    /// through), a press in the composer places the caret, the rest is the feed's.
    func handleMouse(_ mouse: MouseEvent) {
        guard !isTooSmall else { return }
        overlays.point(column: mouse.column, row: mouse.row)
        if mouse.action == .move { return }
        // A page covers everything: the mouse is its own.
        if overlays.page != nil { return apply(overlays.page?.handle(mouse)) }
        // A press during a glide only stops it; on the feed's comments it may go on as a drag.
        if mouse.action == .press, !mouse.isWheel, feed.isGliding,
           !(mouse.button == .left && regions.feed.contains(column: mouse.column, row: mouse.row)) {
            return feed.stopMomentum()
        }
        if feed.gesture == nil, let picker = mentions.picker,
           mentions.isPressed || ((mouse.isWheel || mouse.action == .press) && picker.hitShape.contains(column: mouse.column, row: mouse.row)) {
            if let pick = mentions.handle(mouse) {
                composer.insertMention(pick.user, replacingCharactersBeforeCaret: pick.replacing)
            }
            return
        }
        let regions = self.regions
        if mouse.button == .left, mouse.action == .press, feed.search == nil,
           regions.composer.contains(column: mouse.column, row: mouse.row) {
            return composer.placeCaret(column: mouse.column, row: mouse.row, in: regions.composer, handles: comments.handleID)
        }
        apply(feed.handle(mouse))
    }
}

extension KeyPress {
    /// The character of a character key.
    var character: Character? {
        if case .character(let c) = key { return c }
        return nil
    }
}
