import Glibc

/// The process's own environment as the C library holds it (`environ`), which is what a
/// spawned child inherits.
enum ProcessEnvironment {
    /// Every `NAME=value` entry, in order.
    static var entries: [String] {
        var result: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            result.append(String(cString: entry))
            pointer += 1
        }
        return result
    }

    /// Removes a variable, so that children no longer see it.
    static func remove(_ name: String) { unsetenv(name) }

    /// A variable's value, if it is set.
    static func value(of name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
