import Foundation

/// Parsed comment text as one String and its styled runs: the parser's output
/// (`CommentMarkup.parseRuns`), the same content as the AttributedString `CommentMarkup.parse`
/// makes of it for the APIs that need one.
public struct MarkupRuns: Sendable {
    /// One run: its style and where it ends, as a UTF-8 offset into `text`.
    public struct Run: Hashable, Sendable {
        public var end: Int
        public var style: MarkupStyle

        public init(end: Int, style: MarkupStyle) {
            self.end = end
            self.style = style
        }
    }

    public var text: String
    /// In order; each starts where the one before ends (the first at 0). No run is empty and no
    /// two neighbours have the same style.
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
            let style = MarkupStyle(run.attributes)
            if let last = runs.last, last.style == style {
                runs[runs.count - 1].end = end
            } else {
                runs.append(Run(end: end, style: style))
            }
        }
    }

    /// Checks that runs cover the text in order, none empty, no neighbours alike.
    public func _checkInvariants() {
        var start = 0
        for (index, run) in runs.enumerated() {
            precondition(run.end > start, "run \(index) is empty or goes back")
            precondition(index == 0 || runs[index - 1].style != run.style, "runs \(index - 1) and \(index) have one style")
            start = run.end
        }
        precondition(start == text.utf8.count, "the runs end at \(start), the text at \(text.utf8.count)")
    }
}
