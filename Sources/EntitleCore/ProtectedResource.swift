import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A protected resource: a plain channel id (`news`) or an MRSS fragment naming a channel and optionally an item.
/// A plain id `X` is the same resource as `<rss><channel><title>X</title></channel></rss>`.
public struct ProtectedResource: Sendable, Equatable, Hashable {
    /// The resource string exactly as the client sent it.
    public let raw: String
    /// The channel title (the plain id for a plain resource).
    public let channel: String
    /// The item title, when the MRSS names an item.
    public let itemTitle: String?
    /// The item GUID, when the MRSS names an item.
    public let itemGUID: String?
    /// The rating: the item's, else the channel's, when the MRSS carries one.
    public let rating: ContentRating?

    /// The longest resource string accepted, in bytes.
    public static let maximumLength = 16 * 1024

    /// Whether `raw` is 1 to ``maximumLength`` bytes of printable ASCII with no `<` or `>` and no space at either end:
    /// a plain id that the general reading below would take as it is.
    package static func isPlainASCIIId(_ raw: String) -> Bool {
        let bytes = raw.utf8
        guard let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20, bytes.count <= maximumLength else { return false }
        return !bytes.contains { $0 < 0x20 || $0 > 0x7E || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }
    }

    /// Whether a character is refused in a resource: every control, line or paragraph separator and bidirectional
    /// override (``LogEscaping/isUnsafe(_:)``), except tab, line feed and carriage return inside MRSS.
    static func isForbidden(_ scalar: Unicode.Scalar, inMarkup: Bool) -> Bool {
        if inMarkup, scalar == "\t" || scalar == "\n" || scalar == "\r" { return false }
        return LogEscaping.isUnsafe(scalar)
    }

    /// Whether the resource names a single item.
    public var isItem: Bool { itemTitle != nil || itemGUID != nil }

    /// Parses a plain id or an MRSS fragment; throws ``EnhancedError/invalidResources`` when malformed.
    public init(parsing raw: String) throws(EnhancedError) {
        // The usual resource, a printable ASCII id, is read in one pass over its bytes.
        if Self.isPlainASCIIId(raw) {
            self.raw = raw
            (channel, itemTitle, itemGUID, rating) = (raw, nil, nil, nil)
            return
        }
        // Other plain ids with nothing to trim: no Foundation call for them.
        let edges = [raw.unicodeScalars.first, raw.unicodeScalars.last].compactMap { $0 }
        let trimmed = edges.contains { $0.properties.isWhitespace } ? raw.trimmingCharacters(in: .whitespacesAndNewlines) : raw
        guard !trimmed.isEmpty, raw.utf8.count <= Self.maximumLength else {
            throw EnhancedError.invalidResources.with(details: "A resource is empty or longer than \(Self.maximumLength) bytes.")
        }
        // Control characters (ESC, NUL, DEL, C1…) have no place in a resource id; MRSS may only hold tab and line breaks.
        let isMarkup = trimmed.hasPrefix("<")
        guard !raw.unicodeScalars.contains(where: { Self.isForbidden($0, inMarkup: isMarkup) }) else {
            throw EnhancedError.invalidResources.with(details: "A resource may not contain control characters.")
        }
        self.raw = raw
        if !isMarkup {
            guard !trimmed.contains(where: { $0 == ">" || $0.isNewline }) else {
                throw EnhancedError.invalidResources.with(details: "A plain resource id may not contain markup or line breaks.")
            }
            channel = trimmed
            itemTitle = nil
            itemGUID = nil
            rating = nil
            return
        }
        guard !trimmed.contains("<!") else {
            throw EnhancedError.invalidResources.with(details: "DTDs and declarations are not allowed in MRSS resources.")
        }
        let reader = MRSSReader()
        let parser = XMLParser(data: Data(trimmed.utf8))
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        guard parser.parse(), parser.parserError == nil, reader.sawRSS,
            let channel = reader.channelTitle?.trimmingCharacters(in: .whitespacesAndNewlines),
            !channel.isEmpty
        else {
            throw EnhancedError.invalidResources.with(details: "The MRSS resource is not well-formed or has no channel title.")
        }
        guard reader.itemCount <= 1 else {
            throw EnhancedError.invalidResources.with(details: "An MRSS resource may name at most one item.")
        }
        self.channel = channel
        itemTitle = reader.itemTitle?.trimmingCharacters(in: .whitespacesAndNewlines)
        itemGUID = reader.itemGUID?.trimmingCharacters(in: .whitespacesAndNewlines)
        rating = reader.itemRating ?? reader.channelRating
    }
}

/// Collects the channel title, the item and the ratings of an MRSS document.
private final class MRSSReader: NSObject, XMLParserDelegate {
    var sawRSS = false
    var channelTitle: String?
    var channelRating: ContentRating?
    var itemTitle: String?
    var itemGUID: String?
    var itemRating: ContentRating?
    var itemCount = 0
    private var path: [String] = []
    private var text = ""
    private var ratingScheme = ""

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        path.append(elementName)
        text = ""
        if path.count == 1 { sawRSS = elementName == "rss" }
        if elementName == "item" { itemCount += 1 }
        if elementName == "media:rating" { ratingScheme = attributeDict["scheme"] ?? "urn:v-chip" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        let parent = path.dropLast().last
        switch (parent, elementName) {
        case ("channel", "title"): channelTitle = text
        case ("item", "title"): itemTitle = text
        case ("item", "guid"): itemGUID = text
        case ("item", "media:rating"): itemRating = ContentRating(scheme: ratingScheme, value: text.trimmingCharacters(in: .whitespaces))
        case ("channel", "media:rating"): channelRating = ContentRating(scheme: ratingScheme, value: text.trimmingCharacters(in: .whitespaces))
        default: break
        }
        path.removeLast()
        text = ""
    }
}
