import Foundation
import XCTest
import SynapseFixture
@testable import CommentTUI
import ThreadModel

/// One of a person's devices in a terminal of its own (its own HOME, so its own login, device
/// and crypto store): logged in from the shell, `comment-tui` at home; its verification panel
/// read off the screen.
struct OwnDeviceTerminal {
    let terminal: HomeTerminal
    let userID: String
    let deviceID: String
    var tmux: TmuxSession { terminal.tmux }

    /// Home's one row when the account has no room: the demo.
    static let demo = "Scrolling like a phone, in a terminal"

    /// Logs `localpart` in (a new device) in a new terminal wide enough for the seven emoji in a row.
    init(localpart: String, password: String, server: SynapseServer) throws {
        terminal = try HomeTerminal(columns: 100, rows: 30)
        try terminal.logIn(localpart, password: password, homeserver: server.baseURL)
        let accounts = try MatrixAccounts(path: terminal.tmux.home.path + "/config/comment-tui/accounts.json")
        let account = try XCTUnwrap(accounts.accounts.first)
        userID = account.userID
        deviceID = account.deviceID
    }

    /// `comment-tui verify --recovery-key`, the key read from a file (never typed on the screen).
    func verifyWithRecoveryKey(_ key: String) throws {
        let file = tmux.home.appendingPathComponent("recovery-key")
        try Data((key + "\n").utf8).write(to: file, options: .atomic)
        try tmux.run("clear; \(TmuxSession.clientPath) verify --recovery-key < '\(file.path)'; echo EXIT=$?")
        let screen = try tmux.waitFor("the recovery key to verify \(deviceID)", timeout: 30) { $0.contains { $0.hasPrefix("EXIT=") } }
        XCTAssertTrue(screen.contains("EXIT=0"), screen.joined(separator: "\n"))
    }

    /// Starts the client at home, live.
    func startHome() throws { try terminal.startHome(showing: Self.demo) }

    /// Waits for a screen on which the panel says `text` (on one row).
    @discardableResult
    func waitForPanel(saying text: String, timeout: Double = 20) throws -> [String] {
        try tmux.waitFor("\(deviceID)'s panel to say \(text)", timeout: timeout) { $0.contains { $0.contains(text) } }
    }

    /// Waits for the panel's text, its rows joined with blanks (wrapped text reads whole), to
    /// contain `text`; true when it does.
    func waitForPanelText(_ text: String, timeout: Double = 20) throws -> Bool {
        let screen = try tmux.waitFor("\(deviceID)'s panel to say \(text)", timeout: timeout) { screen in
            Self.joined(screen).contains(text)
        }
        return Self.joined(screen).contains(text)
    }

    /// The screen's rows, their blanks squeezed, joined with one blank.
    private static func joined(_ screen: [String]) -> String {
        screen.map { $0.split(separator: " ").joined(separator: " ") }.joined(separator: " ")
    }

    /// Any key (`x`) closes the panel once it is over: home shows again.
    func closePanel() throws {
        try press("x")
        try tmux.waitFor("\(deviceID)'s panel to close") { screen in
            !screen.contains { $0.contains(" Verify ") } && HomeScreen.row(named: Self.demo, in: screen) != nil
        }
    }

    /// The panel's comparison as the screen shows it: the rows from `Compare these emoji` to the
    /// numbers, trailing blanks cut. Waits for it.
    func comparison() throws -> [String] {
        let screen = try tmux.waitFor("\(deviceID) to show the emoji") { screen in
            screen.contains { $0.contains("Compare these emoji with your other device's screen:") }
                && screen.contains { $0.contains("or the numbers ") }
        }
        let first = try XCTUnwrap(screen.firstIndex { $0.contains("Compare these emoji") })
        let last = try XCTUnwrap(screen.firstIndex { $0.contains("or the numbers ") })
        return screen[first...last].map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// A person's pause, then a key.
    func press(_ key: String) throws {
        // As a person reads the panel before answering: its keys wait a second after it changes.
        Thread.sleep(forTimeInterval: CommentClient.answerDelay + 0.1)
        try tmux.keys(key)
    }

    /// Whether this device's crypto store keeps `other`'s device with Ed25519 key `key` as verified
    /// by interactive verification (read once the client quit: the store is then free).
    func keepsVerified(_ other: OwnDeviceTerminal, key: String) throws -> Bool {
        let home = tmux.home.path
        let accounts = try MatrixAccounts(path: home + "/config/comment-tui/accounts.json")
        let account = try XCTUnwrap(accounts.accounts.first)
        var problems: [String] = []
        let client = MatrixClient(homeserver: try XCTUnwrap(URL(string: account.homeserver)), accessToken: account.accessToken)
        let keys = MatrixRoomKeys.open(client: client, account: account,
                                       environment: ["XDG_DATA_HOME": home + "/data", "XDG_CONFIG_HOME": home + "/config"]) {
            problems.append($0)
        }
        let opened = try XCTUnwrap(keys, "\(deviceID)'s store: \(problems)")
        return opened.verifications.isVerified(device: other.deviceID, of: other.userID, key: key)
    }
}
