import Foundation
import MatrixCrypto
import ThreadModel

/// `keys setup`: cross-signing and secret storage for an account that has neither.
extension KeysCommand {
    static func setup(as chosen: String?, context: CommandContext) throws -> Int32 {
        throw CommandFailure("keys setup is not done yet")
    }
}
