/// A cell of a line being laid out, as plain data: its cluster named by code in the layout's
/// `DisplayClusterTable`, its style by index in its `TextStyleTable`.
///
/// The wrapper copies, carries and drops cells for every character; a `StyledCluster` holds a
/// String, and each of those copies cost a retain and a release of it. Cells cost neither: the
/// cluster is only looked up where a row becomes runs (and where a break asks what it is).
struct LayoutCell: Equatable, Sendable {
    /// The cluster's code: printable ASCII is its own byte, any other an index past those.
    let code: Int32
    private let storedWidth: Int32
    private let storedStyleIndex: Int32
    /// Read once here: the wrapper asks for every cell, often more than once.
    let isSpace: Bool
    /// A later piece of one character shown as several clusters (a ZWJ sequence's components,
    /// a flag's letters, the padding after a stand-in): no row may break before it.
    let joinsPrevious: Bool

    /// Columns the cluster takes.
    var width: Int { Int(storedWidth) }
    /// The index of its style in the layout's `TextStyleTable`.
    var styleIndex: Int { Int(storedStyleIndex) }

    /// `breaksAsSpace: false` makes a blank that rows neither break at nor drop (ruby padding).
    init(code: Int32, width: Int, styleIndex: Int, joinsPrevious: Bool = false, breaksAsSpace: Bool = true) {
        self.code = code
        storedWidth = Int32(width)
        storedStyleIndex = Int32(styleIndex)
        self.joinsPrevious = joinsPrevious
        isSpace = breaksAsSpace && !joinsPrevious && code == Int32(UInt8(ascii: " "))
    }

    /// A printable ASCII character (0x20–0x7E).
    init(ascii byte: UInt8, styleIndex: Int) {
        code = Int32(byte)
        storedWidth = 1
        storedStyleIndex = Int32(styleIndex)
        joinsPrevious = false
        isSpace = byte == UInt8(ascii: " ")
    }

    /// The same cell in another style.
    func styled(_ styleIndex: Int, joinsPrevious: Bool, breaksAsSpace: Bool) -> LayoutCell {
        LayoutCell(code: code, width: width, styleIndex: styleIndex, joinsPrevious: joinsPrevious, breaksAsSpace: breaksAsSpace)
    }
}
