import Foundation

/// A realistic thread of any size, the same bytes for the same seed: no clock, no system randomness.
///
/// Output is streamed in chunks, so a million comments never become one giant string.
public struct ThreadGenerator: Sendable {
    public var commentCount: Int
    public var userCount: Int
    public var seed: UInt64

    public init(comments: Int, users: Int, seed: UInt64) {
        commentCount = comments
        userCount = max(1, users)
        self.seed = seed
    }

    /// Writes the thread file's bytes to a sink, in chunks of about 64 KB.
    public func write(to sink: ([UInt8]) throws -> Void) throws {
        var random = SeededRandom(seed: seed)
        let encoder = ThreadRecordEncoder()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 17)
        func emit(_ record: ThreadRecord) throws {
            encoder.append(record, to: &buffer)
            if buffer.count >= 1 << 16 { try sink(buffer); buffer.removeAll(keepingCapacity: true) }
        }
        let start: Int64 = 1_736_154_000  // 2025-01-06T09:00:00Z
        let users = makeUsers(&random)
        try emit(.thread(ThreadHeader(
            id: "gen-\(seed)", title: GeneratorText.titles[random.below(GeneratorText.titles.count)],
            author: users[0].id, created: Date(timeIntervalSince1970: Double(start)),
            body: GeneratorText.postBody(&random, users: users))))
        for user in users { try emit(.user(user)) }
        var time = start
        for index in 0..<commentCount {
            time += Int64(10 + random.below(random.below(10) == 0 ? 7200 : 600))
            let author = users[random.below(users.count)]
            let created = Date(timeIntervalSince1970: Double(time))
            let edited = random.below(20) == 0 ? created.addingTimeInterval(Double(30 + random.below(3600))) : nil
            try emit(.comment(Comment(
                id: "c\(index + 1)", author: author.id, created: created,
                body: GeneratorText.commentBody(&random, users: users, author: author), edited: edited)))
        }
        if !buffer.isEmpty { try sink(buffer) }
    }

    private func makeUsers(_ random: inout SeededRandom) -> [User] {
        var handles = Set<String>()
        return (0..<userCount).map { index in
            let person = GeneratorText.people[random.below(GeneratorText.people.count)]
            let surname = GeneratorText.surnames[random.below(GeneratorText.surnames.count)]
            var handle = person.handle
            if random.below(3) == 0 { handle += [".", "_", "-"][random.below(3)] + surname.handle }
            if handles.contains(handle.lowercased()) { handle += "\(index + 1)" }
            handles.insert(handle.lowercased())
            return User(id: "u\(index + 1)", handle: String(handle.prefix(39)), name: "\(person.name) \(surname.name)")
        }
    }
}
