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
        endsInBase = VisibleControls.joinState(atEndOf: safe, before: endsInBase)
        if let last = runs.last, last.attributes == attributes {
            runs[runs.count - 1].text += safe
        } else {
            runs.append((safe, attributes))
        }
    }

    /// The runs as plain data, exactly the runs `build()` gives its AttributedString: no empty
    /// run, no two neighbours alike. Walking these costs a fraction of walking the AttributedString.
    func markupRuns() -> MarkupRuns {
        var result = MarkupRuns(text: "", runs: [])
        result.runs.reserveCapacity(runs.count)
        for run in runs where !run.text.isEmpty {
            result.text += run.text
            if let last = result.runs.last, last.attributes == run.attributes {
                result.runs[result.runs.count - 1].end = result.text.utf8.count
            } else {
                result.runs.append(MarkupRuns.Run(end: result.text.utf8.count, attributes: run.attributes))
            }
        }
        return result
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
        apply(CommentAttributes.RubyAttribute.self, to: &result, bounds)
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

/// Parsed comment text as one String and its attribute runs: the same content as the
/// AttributedString `CommentMarkup.parse` returns, for a caller that walks it once.
public struct MarkupRuns: Sendable {
    /// One run: its attributes and where it ends, as a UTF-8 offset into `text`.
    public struct Run: Sendable {
        public var end: Int
        public var attributes: AttributeContainer

        public init(end: Int, attributes: AttributeContainer) {
            self.end = end
            self.attributes = attributes
        }
    }

    public var text: String
    /// In order; each starts where the one before ends (the first at 0).
    public var runs: [Run]

    public init(text: String, runs: [Run]) {
        self.text = text
        self.runs = runs
    }

    /// The runs of an AttributedString (not parsed here: any text, e.g. an error message).
    public init(_ attributed: AttributedString) {
        text = String(attributed.characters)
        runs = []
        var end = 0
        for run in attributed.runs {
            end += attributed.utf8.distance(from: run.range.lowerBound, to: run.range.upperBound)
            runs.append(Run(end: end, attributes: run.attributes))
        }
    }
}
