import Foundation

/// Collects styled pieces of text into `MarkupRuns`, and builds an `AttributedString` from
/// them in linear time where an API needs one.
///
/// Text is made visible-safe here, the one place all content passes; a piece with the style of
/// the run before it extends that run. Indices are walked forward run by run, never offset from
/// `startIndex` (which is quadratic on Linux for many runs).
struct MarkupRunsBuilder {
    private(set) var runs = MarkupRuns(text: "", runs: [])
    private var endsInBase = false

    mutating func append(_ piece: String, _ style: MarkupStyle) {
        guard !piece.isEmpty else { return }
        let safe = VisibleControls.sanitize(piece, afterBase: endsInBase)
        endsInBase = VisibleControls.joinState(atEndOf: safe, before: endsInBase)
        runs.text += safe
        let end = runs.text.utf8.count
        if let last = runs.runs.last, last.style == style {
            runs.runs[runs.runs.count - 1].end = end
        } else {
            runs.runs.append(MarkupRuns.Run(end: end, style: style))
        }
    }

    /// The text in one piece, then each attribute set once per maximal span that shares it.
    /// Appending run by run is linear too, but costs about twice as much per run on Linux.
    func attributedString() -> AttributedString {
        var result = AttributedString(runs.text)
        var bounds = [result.startIndex]
        bounds.reserveCapacity(runs.runs.count + 1)
        var index = result.startIndex
        var start = 0
        for run in runs.runs {
            index = result.utf8.index(index, offsetBy: run.end - start)
            start = run.end
            bounds.append(index)
        }
        // Every key of `CommentAttributes`.
        apply(CommentAttributes.BlockAttribute.self, \.block, to: &result, bounds)
        apply(CommentAttributes.EmphasisAttribute.self, { $0.emphasis ? true : nil }, to: &result, bounds)
        apply(CommentAttributes.StrongAttribute.self, { $0.strong ? true : nil }, to: &result, bounds)
        apply(CommentAttributes.StrikethroughAttribute.self, { $0.strikethrough ? true : nil }, to: &result, bounds)
        apply(CommentAttributes.CodeAttribute.self, { $0.code ? true : nil }, to: &result, bounds)
        apply(CommentAttributes.LinkAttribute.self, \.link, to: &result, bounds)
        apply(CommentAttributes.MentionAttribute.self, \.mention, to: &result, bounds)
        apply(CommentAttributes.SpoilerAttribute.self, \.spoiler, to: &result, bounds)
        apply(CommentAttributes.RubyAttribute.self, \.ruby, to: &result, bounds)
        return result
    }

    private func apply<K: AttributedStringKey>(_ key: K.Type, _ value: (MarkupStyle) -> K.Value?, to result: inout AttributedString,
                                               _ bounds: [AttributedString.Index]) where K.Value: Equatable & Sendable {
        let styles = runs.runs
        var i = 0
        while i < styles.count {
            guard let shared = value(styles[i].style) else { i += 1; continue }
            var j = i + 1
            while j < styles.count, value(styles[j].style) == shared { j += 1 }
            result[bounds[i]..<bounds[j]][K.self] = shared
            i = j
        }
    }
}
