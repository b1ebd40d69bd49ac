/// A content rating from an MRSS `<media:rating>` element.
public struct ContentRating: Sendable, Equatable, Hashable {
    /// The rating scheme, `urn:v-chip` or `urn:mpaa`.
    public var scheme: String
    /// The rating value as written, such as `TV-14` or `pg-13`.
    public var value: String

    /// Creates a rating.
    public init(scheme: String, value: String) {
        self.scheme = scheme
        self.value = value
    }

    /// The US TV Parental Guidelines, least to most restrictive.
    public static let vChipLevels = ["TV-Y", "TV-Y7", "TV-G", "TV-PG", "TV-14", "TV-MA"]

    /// A level on the v-chip scale (TV-Y = 0 … TV-MA = 5), with MPAA ratings mapped onto it; nil when unknown.
    public var level: Int? { Self.level(of: value, scheme: scheme) }

    /// The level of a rating value; `scheme` nil means "guess from the value".
    public static func level(of value: String, scheme: String? = nil) -> Int? {
        let upper = value.uppercased()
        if scheme == nil || scheme == "urn:v-chip", let index = vChipLevels.firstIndex(of: upper) { return index }
        if scheme == nil || scheme == "urn:mpaa" {
            switch upper {
            case "G": return 2
            case "PG": return 3
            case "PG-13": return 4
            case "R", "NC-17": return 5
            default: return nil
            }
        }
        return nil
    }
}
