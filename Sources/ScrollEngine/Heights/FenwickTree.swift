/// A Fenwick (binary indexed) tree of non-negative integers: O(log n) point update, prefix sum
/// and prefix search, O(log n) append, O(n) bulk build.
struct FenwickTree {
    /// 1-based: `nodes[i]` holds the sum of values in `(i - lowbit(i), i]`; `nodes[0]` is unused.
    private var nodes: [Int] = [0]
    /// Plain copies of the values, so reads of one value are O(1).
    private(set) var values: [Int] = []
    /// Sum of all values, kept so the total is O(1).
    private(set) var total: Int = 0

    /// Creates an empty tree.
    init() {}

    /// Builds the tree in O(n): each node pushes its sum to its parent once.
    init(_ values: [Int]) {
        self.values = values
        nodes = [0] + values
        for i in 1..<max(1, nodes.count) {
            let parent = i + (i & -i)
            if parent < nodes.count { nodes[parent] += nodes[i] }
        }
        total = values.reduce(0, +)
    }

    /// Number of values.
    var count: Int { values.count }

    /// Appends a value in O(log n): the new node's range sum is the value plus the nodes that
    /// tile `(i - lowbit(i), i - 1]`.
    mutating func append(_ value: Int) {
        let i = nodes.count
        let stop = i - (i & -i)
        var sum = value
        var j = i - 1
        while j > stop {
            sum += nodes[j]
            j -= j & -j
        }
        nodes.append(sum)
        values.append(value)
        total += value
    }

    /// Sets the value at 0-based `index` in O(log n).
    mutating func set(_ value: Int, at index: Int) {
        let delta = value - values[index]
        guard delta != 0 else { return }
        values[index] = value
        total += delta
        var i = index + 1
        while i < nodes.count {
            nodes[i] += delta
            i += i & -i
        }
    }

    /// Sum of the first `n` values, in O(log n).
    func prefixSum(_ n: Int) -> Int {
        var sum = 0
        var i = n
        while i > 0 {
            sum += nodes[i]
            i -= i & -i
        }
        return sum
    }

    /// The largest `n` with `prefixSum(n) <= limit`, in O(log n) by binary lifting.
    func count(withPrefixAtMost limit: Int) -> Int {
        var position = 0
        var remaining = limit
        var step = 1
        while step * 2 < nodes.count { step *= 2 }
        while step > 0 {
            let next = position + step
            if next < nodes.count && nodes[next] <= remaining {
                position = next
                remaining -= nodes[next]
            }
            step /= 2
        }
        return position
    }

    /// Checks every node against a naive sum (O(n log n); tests only).
    func _checkInvariants() {
        precondition(values.count == nodes.count - 1, "value and node counts differ")
        precondition(values.allSatisfy { $0 >= 0 }, "negative value")
        var running = [0]
        for v in values { running.append(running.last! + v) }
        for i in 1..<max(1, nodes.count) {
            precondition(nodes[i] == running[i] - running[i - (i & -i)], "node \(i) holds a wrong sum")
        }
        precondition(total == running.last!, "total is stale")
    }
}
