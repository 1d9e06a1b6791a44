import Foundation
@testable import ThreadModel
import XCTest
@testable import CommentTUI
import CommentTUITestSupport

/// A link's host is shown in Unicode only where browsers would show it so (one script, or an
/// allowed mix, and not a whole-script look-alike of Latin); else in punycode, with a warning
/// when it is opened.
final class LinkHostSpoofingTests: XCTestCase {
    func testHostsThatImitateOthersAreShownInPunycode() {
        let spoofs: [(url: String, shown: String)] = [
            // All Cyrillic, every letter a Latin look-alike: "аррӏе" (the example).
            ("https://xn--80ak6aa92e.com/", "xn--80ak6aa92e.com"),
            ("https://аррӏе.com/login", "xn--80ak6aa92e.com"),
            ("https://user@XN--80AK6AA92E.com:8443/x?y#z", "xn--80ak6aa92e.com"),
            ("https://www.%D0%B0%D1%80%D1%80%D3%8F%D0%B5.com/", "xn--80ak6aa92e.com"),
            // Latin and Cyrillic mixed: "pаypal" with a Cyrillic а.
            ("https://pаypal.com/", "xn--pypal-4ve.com"),
            // Latin and Greek mixed: "gοοgle" with Greek omicrons.
            ("https://gοοgle.com/", "xn--ggle-0nda.com"),
            // Greek letters that all look Latin.
            ("https://ικο.com/", "xn--uxacp.com"),
            // Han with Hangul and Katakana is no one language's mix.
            ("https://한국カ中.com/", "xn--lck310g9j9dln7a.com"),
            // Not letters: a symbol, a zero-width joiner, a deviation character.
            ("https://a☺b.com/", "xn--ab-4wx.com"),
            ("https://ab\u{200D}c.com/", "xn--abc-fn0a.com"),
            ("https://straße.de/", "xn--strae-oqa.de"),
            // A Latin letter from the IPA block that looks like g.
            ("https://ɡoogle.com/", "xn--oogle-qmc.com"),
        ]
        for spoof in spoofs {
            XCTAssertEqual(LinkHost.host(of: spoof.url), spoof.shown, spoof.url)
        }
    }

    func testHostsOfOneScriptOrAnAllowedMixStayReadable() {
        let readable: [(url: String, shown: String)] = [
            ("https://example.com/", "example.com"),
            ("https://www.xn--bcher-kva.de/", "bücher.de"),
            ("https://bücher.de/", "bücher.de"),
            ("https://xn--e1afmkfd.xn--p1ai/", "пример.рф"),
            ("https://xn--wgv71a119e.jp/", "日本語.jp"),
            // Japanese (Latin, Han, Hiragana, Katakana), Chinese (Latin, Han, Bopomofo), Korean (Latin, Han, Hangul).
            ("https://abcの日本カタカナ.jp/", "abcの日本カタカナ.jp"),
            ("https://中文ㄅa.tw/", "中文ㄅa.tw"),
            ("https://한국어a漢.kr/", "한국어a漢.kr"),
            ("https://ελληνικά.gr/", "ελληνικά.gr"),
            // Cyrillic look-alikes under a Cyrillic country's domain are what Russians write.
            ("https://xn--80ak6aa92e.ru/", "аррӏе.ru"),
            // Punycode that does not decode is shown as written.
            ("https://xn--zz.com/", "xn--zz.com"),
        ]
        for host in readable {
            XCTAssertEqual(LinkHost.host(of: host.url), host.shown, host.url)
        }
    }

    func testAnAutolinkInLookalikeLettersIsFollowedByItsPunycodeHost() {
        XCTAssertFalse(LinkHost.textShowsTarget("https://аррӏе.com/", url: "https://аррӏе.com/"))
        XCTAssertTrue(LinkHost.textShowsTarget("https://xn--80ak6aa92e.com/", url: "https://xn--80ak6aa92e.com/"))
        XCTAssertTrue(LinkHost.textShowsTarget("https://bücher.de", url: "https://bücher.de/"))
        XCTAssertEqual(LinkHost.host(of: "mailto:ann@example.com"), "mailto:ann@example.com")
    }

    func testTheFeedShowsPunycodeAndOpeningSaysWhy() {
        let fixture = ThreadFixture(title: "Links", users: [ThreadFixture.ann, User(id: "u2", handle: "bob", name: "Bob")])
            .adding(["[bank](https://xn--80ak6aa92e.com/) and [shop](https://bücher.de/)"], by: "u2")
        let (app, screen) = fixture.open(columns: 70, rows: 20)
        screen.show(app)
        let text = screen.lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("bank (xn--80ak6aa92e.com) and shop (bücher.de)"), text)
        XCTAssertFalse(text.contains("аррӏе"), text)

        var opened: [String] = []
        app.openLink = { opened.append($0); return true }
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("o")))
        XCTAssertEqual(opened, ["https://xn--80ak6aa92e.com/"])
        XCTAssertTrue(app.message?.contains("punycode") == true, app.message ?? "no message")
        XCTAssertFalse(app.message?.contains("аррӏе") == true, app.message ?? "")
        screen.show(app)
        XCTAssertTrue(screen.lines.last!.contains("punycode"), screen.lines.last!)

        // Shown only, with no browser: the same warning, and the link written in Unicode is shown in punycode.
        let written = ThreadFixture(title: "Links", users: [ThreadFixture.ann, User(id: "u2", handle: "bob", name: "Bob")])
            .adding(["[bank](https://аррӏе.com/login)"], by: "u2")
        let (other, _) = written.open(columns: 70, rows: 20)
        other.openLink = nil
        _ = other.handle(.key(KeyPress(.up, .alt)))
        _ = other.handle(.key(.alt("o")))
        XCTAssertTrue(other.message?.contains("https://xn--80ak6aa92e.com/login") == true, other.message ?? "no message")
        XCTAssertTrue(other.message?.contains("punycode") == true, other.message ?? "no message")
    }

    func testAReadableHostOpensWithoutAWarning() {
        let fixture = ThreadFixture(title: "Links", users: [ThreadFixture.ann, User(id: "u2", handle: "bob", name: "Bob")])
            .adding(["[shop](https://bücher.de/)"], by: "u2")
        let (app, _) = fixture.open(columns: 70, rows: 20)
        app.openLink = { _ in true }
        _ = app.handle(.key(KeyPress(.up, .alt)))
        _ = app.handle(.key(.alt("o")))
        XCTAssertEqual(app.message, "opened https://bücher.de/")
    }
}
