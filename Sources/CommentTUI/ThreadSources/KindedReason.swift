/// A reason the app acts on by its `kind` and the status bar says in its `message`
/// (`SendFailure`, `ThreadProblem`). One known only by its words (a string literal, an older
/// outbox's record) is of the `unknown` kind.
public protocol KindedReason: CustomStringConvertible, ExpressibleByStringInterpolation {
    associatedtype Kind: Equatable
    /// The kind of a reason known only by its words.
    static var unknownKind: Kind { get }
    var kind: Kind { get }
    var message: String { get }
    init(_ kind: Kind, _ message: String)
}

extension KindedReason {
    public init(stringLiteral message: String) { self.init(Self.unknownKind, message) }

    public init(stringInterpolation: DefaultStringInterpolation) {
        self.init(Self.unknownKind, String(stringInterpolation: stringInterpolation))
    }

    public var description: String { message }
}
