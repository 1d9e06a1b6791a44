import Foundation
import XCTest

/// Home and switching in a real terminal: a thread file opened from the command line has home
/// one key away; the demo opens from home; each thread keeps its draft across switches; the next
/// start with no file opens home with the file remembered. Pauses of a second between keys.
final class TmuxHomeTests: XCTestCase {
    private func newThread(_ tmux: TmuxSession, _ name: String, title: String) throws -> String {
        let file = tmux.home.appendingPathComponent(name).path
        try tmux.run("clear; \(TmuxSession.clientPath) new \(file) --title '\(title)' --as ann --name Ann && "
                     + "\(TmuxSession.clientPath) post \(file) --as bo --name Bo --body 'bo was here'; echo NEW=$?")
        try tmux.waitFor("the new thread") { $0.contains("NEW=0") }
        return file
    }

    func testHomeIsOneKeyAwayAndEachThreadKeepsItsDraft() throws {
        let tmux = try TmuxSession()
        let garden = try newThread(tmux, "garden.jsonl", title: "Garden notes")
        try tmux.run("clear; \(TmuxSession.clientPath) \(garden) --as ann; echo EXIT=$?")
        try tmux.waitFor("the garden thread") { $0.contains { $0.contains("@ann · garden.jsonl") } }
        try tmux.literal("garden draft")
        try tmux.waitFor("the draft") { $0.contains { $0.contains("› garden draft") } }
        Thread.sleep(forTimeInterval: 1)

        try tmux.keys("M-h")
        let home = try tmux.waitFor("home") { $0.contains { $0.contains("Garden notes") } && $0.contains { $0.contains("Scrolling like a phone") } }
        XCTAssertFalse(home.contains { $0.contains("› garden draft") }, "home, not the thread, is on screen")
        Thread.sleep(forTimeInterval: 1)
        try tmux.literal("scrolling")
        try tmux.keys("Enter")
        try tmux.waitFor("the demo thread") { $0.contains { $0.contains("Scrolling like a phone") } && $0.last!.contains("demo.jsonl") }
        try tmux.literal("demo draft")
        try tmux.waitFor("the demo's draft") { $0.contains { $0.contains("› demo draft") } }
        Thread.sleep(forTimeInterval: 1)

        // Ctrl-K at the draft's end: the switcher; the garden comes back with its own draft.
        try tmux.keys("C-k")
        try tmux.literal("gard")
        Thread.sleep(forTimeInterval: 1)
        try tmux.keys("Enter")
        try tmux.waitFor("the garden again, its draft kept") { $0.contains { $0.contains("› garden draft") } && $0.last!.contains("garden.jsonl") }
        try tmux.keys("C-k")
        try tmux.literal("phone")
        try tmux.keys("Enter")
        try tmux.waitFor("the demo again, its draft kept") { $0.contains { $0.contains("› demo draft") } }

        try tmux.keys("C-c")
        try tmux.waitFor("the exit") { $0.contains("EXIT=0") }
        try tmux.assertLineModeBack()

        // With no file named, home: the garden is remembered.
        try tmux.run("clear; \(TmuxSession.clientPath); echo EXIT=$?")
        let again = try tmux.waitFor("home at the next start") { $0.contains { $0.contains("Garden notes") } }
        XCTAssertTrue(again.contains { $0.contains("bo was here") }, "the row previews the newest comment:\n\(again.joined(separator: "\n"))")
        try tmux.keys("C-c")
        try tmux.waitFor("the exit") { $0.contains("EXIT=0") }
    }
}
