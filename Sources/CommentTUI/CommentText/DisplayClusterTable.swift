/// The display clusters of one layout, named by code so that cells (`LayoutCell`) hold no String.
///
/// Printable ASCII is its own byte, its cluster made once for all layouts; every other cluster
/// is stored and named by its index past those: as met up to `storedAsMet` of them (most of a
/// comment's are met once, and hashing each cost more than storing it), once each past that
/// (a huge body's repeat, and would grow it by the cluster). A table is
/// built by one layout on one thread (`LogicalLines`, `LineWrapper`, `RubyPlacement`) and only
/// grows, so a code handed out stays valid for the table's life.
final class DisplayClusterTable {
    /// Printable ASCII as display clusters, by byte.
    private static let ascii: [DisplayCluster] = (0..<128).map {
        DisplayCluster(text: String(Character(Unicode.Scalar(UInt8($0)))), width: 1)
    }
    /// Codes below this are ASCII bytes.
    private static let firstStored = Int32(128)
    /// `ascii`, held by each table: read for every cell, without a check that it was made.
    private let asciiClusters = DisplayClusterTable.ascii
    /// Clusters stored as met, without looking for an equal one.
    static let storedAsMet = 4096

    /// The clusters other than printable ASCII, by code less `firstStored`.
    private(set) var stored: [DisplayCluster] = []
    /// The code of each cluster stored past `storedAsMet`, by its exact bytes: Strings compare
    /// canonically, and `神` U+FA19 must not be drawn as U+795E, nor `〈` U+3008 break as U+2329.
    private var codes: [ExactCluster: Int32] = [:]

    /// A cluster equal to another only byte for byte.
    private struct ExactCluster: Hashable {
        var bytes: [UInt8]
        var width: Int

        init(_ cluster: DisplayCluster) {
            bytes = Array(cluster.text.utf8)
            width = cluster.width
        }
    }

    /// An empty table.
    init() {}

    /// A code of `cluster`, stored if need be.
    func code(of cluster: DisplayCluster) -> Int32 {
        let utf8 = cluster.text.utf8
        if cluster.width == 1, utf8.count == 1, let byte = utf8.first, byte >= 0x20, byte < 0x7F { return Int32(byte) }
        let pastMet = stored.count >= Self.storedAsMet
        let key = pastMet ? ExactCluster(cluster) : nil
        if let key, let known = codes[key] { return known }
        let code = Self.firstStored + Int32(stored.count)
        stored.append(cluster)
        if let key { codes[key] = code }
        return code
    }

    /// A cell of `cluster` (see `LayoutCell.init`).
    func cell(_ cluster: DisplayCluster, styleIndex: Int, joinsPrevious: Bool = false, breaksAsSpace: Bool = true) -> LayoutCell {
        LayoutCell(code: code(of: cluster), width: cluster.width, styleIndex: styleIndex,
                   joinsPrevious: joinsPrevious, breaksAsSpace: breaksAsSpace)
    }

    /// The cluster a code names.
    subscript(code: Int32) -> DisplayCluster {
        code < Self.firstStored ? asciiClusters[Int(code)] : stored[Int(code - Self.firstStored)]
    }

    /// Past `storedAsMet` every cluster is stored once, under its code; none is printable ASCII.
    func _checkInvariants() {
        precondition(codes.count == max(0, stored.count - Self.storedAsMet), "each cluster past those met is stored once")
        for (n, cluster) in stored.enumerated() {
            if n >= Self.storedAsMet { precondition(codes[ExactCluster(cluster)] == Self.firstStored + Int32(n), "a cluster's code names it") }
            precondition(!(cluster.width == 1 && cluster.text.utf8.count == 1 && (0x20..<0x7F).contains(cluster.text.utf8.first!)),
                         "printable ASCII is its own byte")
        }
    }
}
