import Foundation
import XCTest
import ThreadModel

/// A file outside the state directory that planted links point to: its bytes and mode must
/// never change.
public struct PlantedVictim {
    public let path: String
    public let bytes = Data("the victim's own bytes\n".utf8)
    public let mode: mode_t = 0o644

    public init(at path: String) throws {
        self.path = path
        try bytes.write(to: URL(fileURLWithPath: path))
        guard chmod(path, mode) == 0 else { throw SystemError("chmod", path: path) }
    }

    /// Plants a symbolic link to the victim at `path`, making its folder (0700) if missing.
    public func plantLink(at path: String) throws {
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: self.path)
    }

    /// Its bytes and mode are as they were, and it has `links` names.
    public func assertUntouched(links: Int = 1, file: StaticString = #filePath, line: UInt = #line) throws {
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0, file: file, line: line)
        XCTAssertEqual(status.st_mode & 0o7777, mode, "the victim's mode", file: file, line: line)
        XCTAssertEqual(Int(status.st_nlink), links, file: file, line: line)
        XCTAssertEqual(FileManager.default.contents(atPath: path), bytes, "the victim's bytes", file: file, line: line)
    }
}
