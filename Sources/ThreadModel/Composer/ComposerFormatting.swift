import Foundation

/// A formatting the composer can toggle on text.
public enum ComposerFormat: String, CaseIterable, Codable, Hashable, Sendable {
    case bold, italic, strikethrough, code, spoiler
}

/// The allow-list of what a draft may carry: which formats, and whether mentions stay mentions.
///
/// Everything else (links, blocks, keys from other scopes) is stripped on paste and restore, so
/// the draft only holds what `markdown` can write back.
public struct ComposerFormatting: Hashable, Sendable {
    /// The formats a draft may carry.
    public var allowed: Set<ComposerFormat>
    /// Whether `@handle` mentions keep their user id.
    var allowsMentions: Bool

    /// An allow-list of the given formats.
    public init(allowed: Set<ComposerFormat> = Set(ComposerFormat.allCases), allowsMentions: Bool = true) {
        self.allowed = allowed
        self.allowsMentions = allowsMentions
    }

    /// Every format and mentions.
    public static let standard = ComposerFormatting()

    /// The formats set in an attribute container (whatever the allow-list says).
    public static func formats(in attributes: AttributeContainer) -> Set<ComposerFormat> {
        var set = Set<ComposerFormat>()
        if attributes[CommentAttributes.StrongAttribute.self] == true { set.insert(.bold) }
        if attributes[CommentAttributes.EmphasisAttribute.self] == true { set.insert(.italic) }
        if attributes[CommentAttributes.StrikethroughAttribute.self] == true { set.insert(.strikethrough) }
        if attributes[CommentAttributes.CodeAttribute.self] == true { set.insert(.code) }
        if attributes[CommentAttributes.SpoilerAttribute.self] != nil { set.insert(.spoiler) }
        return set
    }

    /// The container holding exactly the allowed part of `formats` and `mention`.
    ///
    /// A mention is never code: the parser never makes one inside a code span, so a draft that
    /// had both could not survive a round trip. Spoilers are one toggle here, so their number is 1.
    public func attributes(formats: Set<ComposerFormat>, mention: String? = nil) -> AttributeContainer {
        var container = AttributeContainer()
        let mention = allowsMentions ? mention : nil
        let formats = formats.intersection(allowed).subtracting(mention == nil ? [] : [.code])
        if formats.contains(.bold) { container[CommentAttributes.StrongAttribute.self] = true }
        if formats.contains(.italic) { container[CommentAttributes.EmphasisAttribute.self] = true }
        if formats.contains(.strikethrough) { container[CommentAttributes.StrikethroughAttribute.self] = true }
        if formats.contains(.code) { container[CommentAttributes.CodeAttribute.self] = true }
        if formats.contains(.spoiler) { container[CommentAttributes.SpoilerAttribute.self] = 1 }
        if let mention { container[CommentAttributes.MentionAttribute.self] = mention }
        return container
    }

    /// What `attributes` reduces to under the allow-list.
    public func allowedPart(of attributes: AttributeContainer) -> AttributeContainer {
        self.attributes(formats: Self.formats(in: attributes), mention: attributes[CommentAttributes.MentionAttribute.self])
    }

    /// The text with only allow-listed attributes, its characters sanitized like a plain paste.
    ///
    /// Rebuilt run by run (linear) instead of removing keys, because keys from other scopes
    /// cannot be enumerated on an `AttributeContainer`.
    public func sanitize(_ text: AttributedString) -> AttributedString {
        var out = AttributedString()
        for run in text.runs {
            // By scalars: a run's Characters round a bound inside a Character down, which would
            // move a mark (and the letter it joins) from one run to the next.
            let original = String(String.UnicodeScalarView(text[run.range].unicodeScalars))
            let piece = Self.sanitizePlainText(original)
            guard !piece.isEmpty else { continue }
            var attributes = allowedPart(of: run.attributes)
            // A mention whose text was changed by sanitizing is no longer the `@handle` it named.
            if attributes[CommentAttributes.MentionAttribute.self] != nil, piece != original {
                attributes[CommentAttributes.MentionAttribute.self] = nil
            }
            out.append(AttributedString(piece, attributes: attributes))
        }
        return out
    }

    /// Pasted plain text made safe: `\r\n` and `\r` become `\n`; other C0/C1 controls, DEL and
    /// invisible format characters (bidi overrides and isolates among them) are dropped.
    ///
    /// The decision per scalar is `VisibleControls`' (so the composer and the viewer agree on what
    /// is hostile), but a draft drops such scalars instead of showing stand-ins.
    static func sanitizePlainText(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value >= 0x7F }) else { return text }
        var out = String.UnicodeScalarView()
        var context = VisibleControls.Context()
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar == "\r" }
            if scalar == "\r" { out.append("\n"); context = .init(); continue }
            if scalar == "\n" {
                if !afterCR { out.append("\n") }
                context = .init()
                continue
            }
            if VisibleControls.placeholder(for: scalar, in: context) != nil { continue }
            out.append(scalar)
            context = context.after(scalar)
        }
        return String(out)
    }
}
