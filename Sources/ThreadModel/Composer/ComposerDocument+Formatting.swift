import Foundation

extension ComposerDocument {
    /// Whether `format` is on: over the whole selection, or for the next typed text.
    public func isActive(_ format: ComposerFormat) -> Bool {
        if selection.isEmpty { return currentTypingFormats.contains(format) }
        return wholeSelectionHas(format)
    }

    /// Toggles `format` on the selection (off if all of it has it, else on), or for the next
    /// typed text when the selection is empty.
    public mutating func toggle(_ format: ComposerFormat) {
        guard formatting.allowed.contains(format) else { return }
        if selection.isEmpty {
            typingFormats = currentTypingFormats.symmetricDifference([format])
            return
        }
        let remove = wholeSelectionHas(format)
        history.record(snapshot, kind: .other)
        let range = selection
        let pieces = text[range].runs.map { ($0.range, $0.attributes) }
        let allowed = formatting
        // Attribute changes keep indices valid today, but `transform` says so by contract.
        let tracked = text.transform(updating: range) { t in
            for (runRange, attributes) in pieces {
                var formats = ComposerFormatting.formats(in: attributes)
                if remove { formats.remove(format) } else { formats.insert(format) }
                t[runRange].setAttributes(allowed.attributes(formats: formats, mention: attributes[CommentAttributes.MentionAttribute.self]))
            }
        }
        if let tracked { selection = tracked }
    }

    /// Whether every run of the selection has `format`; mentions do not count for code, which
    /// never applies to them.
    func wholeSelectionHas(_ format: ComposerFormat) -> Bool {
        var any = false
        for run in text[selection].runs {
            if format == .code, run[CommentAttributes.MentionAttribute.self] != nil { continue }
            guard ComposerFormatting.formats(in: run.attributes).contains(format) else { return false }
            any = true
        }
        return any
    }
}
