import Foundation
import XCTest
@testable import CommentTUI

/// The terminal closed while the draft is in `$EDITOR` (issue 36): the client keeps the draft,
/// ends the editor and exits, however the editor takes the hang-up.
final class TmuxEditorHangUpTests: XCTestCase {
    /// Whether process `pid` is gone (or a zombie no one waits for any more).
    func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // The state follows the command name's closing parenthesis.
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }

    /// The processes `pid` started, and theirs.
    func descendants(of pid: Int32) -> [Int32] {
        let children = ((try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? "")
            .split(separator: " ").compactMap { Int32($0) }
        return children + children.flatMap { descendants(of: $0) }
    }

    /// Ctrl-X Ctrl-E, then the processes under the worker once the editor's `sleep` runs.
    func startEditor(in tmux: TmuxSession, under worker: Int32) throws -> [Int32] {
        try tmux.keys("C-x", "C-e")
        var editor: [Int32] = []
        try Waiting.until("the editor's sleep to run") {
            editor = descendants(of: worker)
            return editor.contains { (try? String(contentsOfFile: "/proc/\($0)/cmdline", encoding: .utf8))?.hasPrefix("sleep") == true }
        }
        return editor
    }

    func testClosingTheTerminalWhileTheEditorRunsSavesTheDraftAndEndsClientAndEditor() throws {
        // The session is killed below: tmux's own check at the end has no server to talk to.
        let tmux = try TmuxSession()
        // An editor that takes no notice of the hang-up (as one busy saving, or run by a shell
        // that ignores SIGHUP) and never returns by itself.
        try tmux.run(#"export EDITOR="trap '' HUP; sleep 300; :""#)
        try tmux.startClient()
        try tmux.literal("words before the editor")
        try tmux.waitFor("the draft") { $0.contains("› words before the editor") }
        let supervisor = try tmux.supervisorPID(), worker = try tmux.workerPID()
        Thread.sleep(forTimeInterval: 1)
        let editor = try startEditor(in: tmux, under: worker)
        defer { for pid in editor where !isGone(pid) { kill(pid, SIGKILL) } }
        Thread.sleep(forTimeInterval: 1)
        try tmux.tmux(["kill-session", "-t", "0"])
        try Waiting.until("the client to exit after the terminal closed", timeout: 10) {
            isGone(worker) && isGone(supervisor)
        }
        try Waiting.until("the editor ended too", timeout: 10) { editor.allSatisfy(isGone) }
        let state = tmux.home.appendingPathComponent("data/comment-tui/state")
        let names = try FileManager.default.contentsOfDirectory(atPath: state.path)
        let draft = try XCTUnwrap(names.first { $0.hasSuffix(".draft.json") }, "\(names)")
        XCTAssertTrue(try String(contentsOf: state.appendingPathComponent(draft), encoding: .utf8).contains("words before the editor"))
    }

    func testSIGTERMWhileTheEditorRunsNamesTheKeptFileOnTheTerminalAtExit() throws {
        let tmux = try TmuxSession()
        // An editor that saves new text, then takes no notice of SIGTERM and never returns.
        try tmux.run(#"export EDITOR="f() { printf 'saved in the editor' > \"\$1\"; trap '' TERM; sleep 300; }; f""#)
        try tmux.startClient()
        try tmux.literal("words before the editor")
        try tmux.waitFor("the draft") { $0.contains("› words before the editor") }
        let worker = try tmux.workerPID()
        Thread.sleep(forTimeInterval: 1)
        let editor = try startEditor(in: tmux, under: worker)
        defer { for pid in editor where !isGone(pid) { kill(pid, SIGKILL) } }
        Thread.sleep(forTimeInterval: 1)
        kill(worker, SIGTERM)
        let lines = try tmux.waitFor("the kept file named after the client exits", timeout: 15) {
            $0.joined(separator: "\n").contains("comment-tui: what the editor saved is kept in ")
        }
        try Waiting.until("the editor ended too", timeout: 10) { editor.allSatisfy(isGone) }
        let named = try XCTUnwrap(lines.joined().range(of: #"kept in (/\S+\.md)"#, options: .regularExpression))
        let path = String(lines.joined()[named].dropFirst("kept in ".count))
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "saved in the editor")
        try? FileManager.default.removeItem(atPath: path)
    }
}
