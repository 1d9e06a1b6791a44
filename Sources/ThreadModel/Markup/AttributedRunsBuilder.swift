import Foundation

/// Collects (text, attributes) runs and builds one `AttributedString` from them in linear time.
///
/// Adjacent runs with equal attributes are merged first; text is made visible-safe here, the one
/// place all content passes. Indices are walked forward run by run, never offset from
/// `startIndex` (which is quadratic on Linux for many runs).
struct AttributedRunsBuilder {
    private var runs: [(text: String, attributes: AttributeContainer)] = []
    private var endsInBase = false

    mutating func append(_ text: String, _ attributes: AttributeContainer) {
        guard !text.isEmpty else { return }
        let safe = VisibleControls.sanitize(text, afterBase: endsInBase)
        if let last = safe.unicodeScalars.last { endsInBase = last != "\n" && last != "\t" }
        if let last = runs.last, last.attributes == attributes {
            runs[runs.count - 1].text += safe
        } else {
            runs.append((safe, attributes))
        }
    }

    /// The text in one piece, then each attribute set once per maximal span that shares it.
    /// Appending run by run is linear too, but costs about twice as much per run on Linux.
    func build() -> AttributedString {
        var text = ""
        for run in runs { text += run.text }
        var result = AttributedString(text)
        var bounds = [result.startIndex]
        bounds.reserveCapacity(runs.count + 1)
        var index = result.startIndex
        for run in runs {
            index = result.unicodeScalars.index(index, offsetBy: run.text.unicodeScalars.count)
            bounds.append(index)
        }
        // Every key of `CommentAttributes`.
        apply(CommentAttributes.BlockAttribute.self, to: &result, bounds)
        apply(CommentAttributes.EmphasisAttribute.self, to: &result, bounds)
        apply(CommentAttributes.StrongAttribute.self, to: &result, bounds)
        apply(CommentAttributes.StrikethroughAttribute.self, to: &result, bounds)
        apply(CommentAttributes.CodeAttribute.self, to: &result, bounds)
        apply(CommentAttributes.LinkAttribute.self, to: &result, bounds)
        apply(CommentAttributes.MentionAttribute.self, to: &result, bounds)
        apply(CommentAttributes.SpoilerAttribute.self, to: &result, bounds)
        return result
    }

    private func apply<K: AttributedStringKey>(_ key: K.Type, to result: inout AttributedString, _ bounds: [AttributedString.Index])
    where K.Value: Equatable & Sendable {
        var i = 0
        while i < runs.count {
            guard let value = runs[i].attributes[K.self] else { i += 1; continue }
            var j = i + 1
            while j < runs.count, runs[j].attributes[K.self] == value { j += 1 }
            result[bounds[i]..<bounds[j]][K.self] = value
            i = j
        }
    }
}
