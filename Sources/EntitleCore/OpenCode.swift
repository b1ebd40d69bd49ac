/// A member of an open code set: the shape of every typed word of the system (decision sources, session statuses,
/// degradation rules, key purposes, MVPD kinds, profile types, Enhanced Error Codes).
///
/// A struct over the word's wire and database text with static constants for the words this version knows, Codable
/// as the plain string (the standard library's `RawRepresentable` coding), Hashable, Sendable, and writable as a
/// string literal (so a test can compare against the text it saw on the wire; code in the package names the
/// constants). Open rather than an enum: rows written by a newer instance sharing the database and answers of a newer
/// service must be read without failing; an unknown word matches none of the constants. Where input must be one of
/// the known words (an admin command), the type lists them in `known` and the caller refuses the rest.
public protocol OpenCode: RawRepresentable, Codable, Sendable, Hashable, ExpressibleByStringLiteral,
    CustomStringConvertible
where RawValue == String, StringLiteralType == String {
    /// Creates a word from its text; every text is a word.
    init(rawValue: String)
}

extension OpenCode {
    /// Creates a word from a literal text.
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    /// The word's text.
    public var description: String { rawValue }
}
