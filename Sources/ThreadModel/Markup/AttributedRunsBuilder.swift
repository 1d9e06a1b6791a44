import Foundation

/// Collects (text, attributes) runs and builds one `AttributedString` from them in linear time.
///
/// Adjacent runs with equal attributes are merged first; text is made visible-safe here, the one
/// place all content passes. Building by appending keeps clear of index arithmetic from
/// `startIndex`, which is quadratic on Linux for many runs.
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

    func build() -> AttributedString {
        var result = AttributedString()
        for run in runs {
            result.append(AttributedString(run.text, attributes: run.attributes))
        }
        return result
    }
}
