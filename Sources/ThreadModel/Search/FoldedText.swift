/// Folded bytes written in place, for the scan's inner loop: an append there is a store and an
/// increment, without the checks (capacity, uniqueness) an array append makes per byte.
final class FoldedText {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    func removeAll() { count = 0 }

    /// Makes room for `more` bytes past those held.
    @inline(__always)
    func reserve(_ more: Int) {
        if count + more > capacity { grow(to: count + more) }
    }

    /// Appends a byte there is room for (`reserve`).
    @inline(__always)
    func appendReserved(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// Appends bytes, with room for `more` after them.
    func append(_ bytes: [UInt8], reserving more: Int) {
        reserve(bytes.count + more)
        for byte in bytes { appendReserved(byte) }
    }

    /// Whether the bytes held contain `needle`.
    func contains(_ needle: [UInt8]) -> Bool {
        needle.withUnsafeBytes { ByteSearch.firstIndex(of: $0, in: UnsafeRawBufferPointer(start: base, count: count)) != nil }
    }

    private func grow(to needed: Int) {
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: max(needed, capacity * 2))
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = max(needed, capacity * 2)
    }
}
