import ThreadModel

/// A source that keeps the reader's place where others see it as the reader reads (a room's
/// read marker and receipts), rather than only at exit (`ThreadSource.saveReadMarker`).
public protocol ReadReceipts: AnyObject {
    /// The reader has now seen up to this comment; the source moves its marker at once (in the
    /// background).
    func readMarkerMoved(_ marker: ReadMarker)
}
