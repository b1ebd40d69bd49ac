import CLibXML2
import Foundation

/// One-time libxml2 global initialisation (xmlInitParser is not thread-safe on first call).
enum LibXML {
    static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Upper bound for protocol messages this library parses.
    static let maxDocumentBytes = 1 << 20
    /// Upper bound for metadata documents (operators may import federation aggregates).
    static let maxMetadataBytes = 64 << 20
}

/// A parsed libxml2 document owned by one caller for one operation; freed on deinit. Not shared across tasks.
final class XMLDoc {
    let doc: xmlDocPtr

    /// Parses untrusted XML: no network, no DTD loading, no entity substitution; any DOCTYPE is rejected (XXE,
    /// entity expansion).
    init(bytes: [UInt8], limit: Int = LibXML.maxDocumentBytes) throws {
        _ = LibXML.initialized
        guard bytes.count <= limit else {
            throw SAMLError(.tooLarge, "XML document exceeds \(limit) bytes")
        }
        // The document is always decoded as UTF-8 (declared encodings are overridden) and NUL bytes are refused,
        // so a DOCTYPE cannot hide in UTF-16/EBCDIC from the byte scan below.
        if bytes.contains(0) {
            throw SAMLError.malformed("XML must be UTF-8 encoded")
        }
        if XMLDoc.containsDoctype(bytes) {
            throw SAMLError.malformed("XML with a DOCTYPE is not accepted")
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let parsed: xmlDocPtr? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                    xmlReadMemory($0, Int32(buf.count), "noname.xml", "UTF-8", options)
                }
            }
        }
        guard let parsed else { throw SAMLError.malformed("XML is not well-formed") }
        if parsed.pointee.intSubset != nil || parsed.pointee.extSubset != nil {
            xmlFreeDoc(parsed)
            throw SAMLError.malformed("XML with a DOCTYPE is not accepted")
        }
        guard xmlDocGetRootElement(parsed) != nil else {
            xmlFreeDoc(parsed)
            throw SAMLError.malformed("XML has no root element")
        }
        doc = parsed
    }

    convenience init(string: String, limit: Int = LibXML.maxDocumentBytes) throws {
        try self.init(bytes: Array(string.utf8), limit: limit)
    }

    deinit { xmlFreeDoc(doc) }

    var root: xmlNodePtr { xmlDocGetRootElement(doc)! }

    /// Serialises the document (root element, with an XML declaration) as UTF-8 text.
    func serialize() -> String {
        guard let buffer = xmlBufferCreate() else { return "" }
        defer { xmlBufferFree(buffer) }
        xmlNodeDump(buffer, doc, root, 0, 0)
        let length = Int(xmlBufferLength(buffer))
        guard let content = xmlBufferContent(buffer) else { return "" }
        let text = String(decoding: UnsafeBufferPointer(start: content, count: length), as: UTF8.self)
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + text
    }

    /// Every element with an unqualified `ID` attribute, by ID; throws on duplicates (signature wrapping defence).
    func elementsByID() throws -> [String: xmlNodePtr] {
        var result: [String: xmlNodePtr] = [:]
        var failure: SAMLError?
        root.walkElements { node in
            if failure == nil, let id = node.attribute("ID") {
                if result[id] != nil {
                    failure = SAMLError(.duplicateID, "duplicate ID \(id) in document")
                }
                result[id] = node
            }
        }
        if let failure { throw failure }
        return result
    }

    private static func containsDoctype(_ bytes: [UInt8]) -> Bool {
        let needle = Array("<!DOCTYPE".utf8)
        guard bytes.count >= needle.count else { return false }
        var i = 0
        while i <= bytes.count - needle.count {
            if bytes[i] == 60, bytes[i + 1] == 33 {
                var match = true
                for k in 2..<needle.count where bytes[i + k] != needle[k] {
                    match = false
                    break
                }
                if match { return true }
            }
            i += 1
        }
        return false
    }
}
