import Foundation
import XCTest
@testable import CommentTUI

/// Runs a verb in-process with captured streams, a fixed clock and a given stdin.
final class VerbRun {
    var output: [UInt8] = []
    var error = ""
    var status: Int32 = -1

    var text: String { String(decoding: output, as: UTF8.self) }

    @discardableResult
    init(_ verb: Verb, _ arguments: [String], input: String? = nil, environment: [String: String] = [:],
         now: Date = Date(timeIntervalSince1970: 1_744_884_000)) {
        let context = CommandContext(
            environment: environment, now: { now },
            writeOutput: { [unowned self] in self.output += $0 },
            writeError: { [unowned self] in self.error += $0 },
            readInput: { limit in Array(Array((input ?? "").utf8).prefix(limit + 1)) },
            inputIsTerminal: input == nil)
        status = verb.run(arguments, context: context)
    }
}

/// A fresh directory removed after the test.
func temporaryDirectory(_ test: XCTestCase) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verbs-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    test.addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
    return directory
}
