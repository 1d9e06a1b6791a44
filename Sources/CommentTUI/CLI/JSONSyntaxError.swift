/// Where a JSON text stops parsing, and why.
struct JSONSyntaxError: Error, Equatable {
    /// The offset of the byte where the problem is, from 0 (the file's length when it ends early).
    var offset: Int
    /// What is wrong there, in words ("invalid UTF-8 (byte 0xFF)").
    var message: String

    init(offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }
}
