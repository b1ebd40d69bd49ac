import CLibXML2
import Foundation

/// XML namespace URIs used by SAML 2.0 and XMLDSig.
enum NS {
    static let assertion = "urn:oasis:names:tc:SAML:2.0:assertion"
    static let protocol_ = "urn:oasis:names:tc:SAML:2.0:protocol"
    static let metadata = "urn:oasis:names:tc:SAML:2.0:metadata"
    static let dsig = "http://www.w3.org/2000/09/xmldsig#"
    static let excC14N = "http://www.w3.org/2001/10/xml-exc-c14n#"
    static let xsi = "http://www.w3.org/2001/XMLSchema-instance"
}

/// One-time libxml2 global initialisation (xmlInitParser is not thread-safe on first call).
enum LibXML {
    static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Upper bound for any XML document this library parses.
    static let maxDocumentBytes = 1 << 20
}

/// A parsed libxml2 document owned by one caller for one operation; freed on deinit. Not shared across tasks.
final class XMLDoc {
    let doc: xmlDocPtr

    /// Parses untrusted XML: no network, no DTD loading, no entity substitution; any DOCTYPE is rejected (XXE,
    /// entity expansion).
    init(bytes: [UInt8]) throws {
        _ = LibXML.initialized
        guard bytes.count <= LibXML.maxDocumentBytes else {
            throw SAMLError(code: SAMLError.tooLarge, message: "XML document exceeds \(LibXML.maxDocumentBytes) bytes")
        }
        if XMLDoc.containsDoctype(bytes) {
            throw SAMLError.malformed("XML with a DOCTYPE is not accepted")
        }
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        let parsed: xmlDocPtr? = bytes.withUnsafeBufferPointer { buf in
            buf.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buf.count) {
                    xmlReadMemory($0, Int32(buf.count), "noname.xml", nil, options)
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

    convenience init(string: String) throws {
        try self.init(bytes: Array(string.utf8))
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
                    failure = SAMLError(code: SAMLError.duplicateID, message: "duplicate ID \(id) in document")
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

extension UnsafeMutablePointer where Pointee == xmlNode {
    var isElement: Bool { pointee.type == XML_ELEMENT_NODE }

    var localName: String { pointee.name.map { String(cString: $0) } ?? "" }

    var namespaceURI: String? { pointee.ns?.pointee.href.map { String(cString: $0) } }

    func isElement(_ namespace: String, _ name: String) -> Bool {
        isElement && localName == name && namespaceURI == namespace
    }

    /// Element children in document order.
    var childElements: [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        var child = pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { result.append(c) }
            child = c.pointee.next
        }
        return result
    }

    func children(_ namespace: String, _ name: String) -> [xmlNodePtr] {
        childElements.filter { $0.isElement(namespace, name) }
    }

    func child(_ namespace: String, _ name: String) -> xmlNodePtr? {
        childElements.first { $0.isElement(namespace, name) }
    }

    /// Value of an attribute without namespace (read from the attribute's text children; no allocation to free).
    func attribute(_ name: String) -> String? {
        var attr = pointee.properties
        while let a = attr {
            if a.pointee.ns == nil, let n = a.pointee.name, String(cString: n) == name {
                var value = ""
                var node = a.pointee.children
                while let t = node {
                    if let content = t.pointee.content { value += String(cString: content) }
                    node = t.pointee.next
                }
                return value
            }
            attr = a.pointee.next
        }
        return nil
    }

    /// Concatenated text of all descendant text and CDATA nodes (comments skipped, so a comment cannot truncate).
    var textContent: String {
        var out = ""
        func collect(_ node: xmlNodePtr) {
            var child = node.pointee.children
            while let c = child {
                switch c.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = c.pointee.content { out += String(cString: content) }
                case XML_ELEMENT_NODE:
                    collect(c)
                default:
                    break
                }
                child = c.pointee.next
            }
        }
        collect(self)
        return out
    }

    /// Trimmed text content.
    var trimmedText: String { textContent.trimmingCharacters(in: .whitespacesAndNewlines) }

    /// Calls `body` for this element and every descendant element, in document order.
    func walkElements(_ body: (xmlNodePtr) -> Void) {
        guard isElement else { return }
        body(self)
        var child = pointee.children
        while let c = child {
            if c.pointee.type == XML_ELEMENT_NODE { c.walkElements(body) }
            child = c.pointee.next
        }
    }

    /// All descendant-or-self elements with this name.
    func descendants(_ namespace: String, _ name: String) -> [xmlNodePtr] {
        var result: [xmlNodePtr] = []
        walkElements { if $0.isElement(namespace, name) { result.append($0) } }
        return result
    }

    /// Number of element ancestors.
    var depth: Int {
        var count = 0
        var p = pointee.parent
        while let n = p, n.pointee.type == XML_ELEMENT_NODE {
            count += 1
            p = n.pointee.parent
        }
        return count
    }

    /// Replaces the element's content with literal text (escaped by libxml2).
    func setText(_ text: String) {
        xmlNodeSetContent(self, nil)
        xmlNodeAddContent(self, text)
    }
}
