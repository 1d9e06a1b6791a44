/// The smallest `limit` keys seen so far, kept in a max-heap so a worse key is rejected with one compare.
///
/// A re-rank may match most of 100,000 users; sorting them all for the top eight would cost far more
/// than the scan itself.
struct MentionBestKeys {
    let limit: Int
    private var heap: [UInt64] = []

    init(limit: Int) {
        self.limit = max(0, limit)
        heap.reserveCapacity(self.limit)
    }

    @inline(__always)
    mutating func offer(_ key: UInt64) {
        if heap.count < limit {
            heap.append(key)
            siftUp(heap.count - 1)
        } else if limit > 0, key < heap[0] {
            heap[0] = key
            siftDown(0)
        }
    }

    /// The kept keys, smallest (best) first.
    func sorted() -> [UInt64] { heap.sorted() }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child] > heap[parent] else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var largest = heap[left] > heap[parent] ? left : parent
            if left + 1 < heap.count, heap[left + 1] > heap[largest] { largest = left + 1 }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
