import CLibXML2
import EntitleCore
import Foundation

/// Adobe's `<proxiedMvpds>` document of the Proxy MVPD Web Service: parsed strictly against Adobe's XSD (no DOCTYPE,
/// no entities, only the schema's elements, each as often as the schema allows, ids per Adobe's pattern) and rendered
/// as Adobe's examples show it. The elements may carry no namespace (Adobe's examples) or the XSD's target namespace.
package struct ProxiedMVPDList: Sendable, Equatable {
    /// One `<proxiedMvpd>`.
    package struct Entry: Sendable, Equatable {
        package var id: String
        package var providerID: String?
        package var displayName: String
        package var logoURL: String
        package var iframeHeight: Int64?
        package var iframeWidth: Int64?
        /// nil: no `<requestorIds>` (every requestor the proxy is integrated with).
        package var requestorIDs: [String]?

        /// Creates the value from each of its stored properties.
        package init(
            id: String, providerID: String? = nil, displayName: String, logoURL: String, iframeHeight: Int64? = nil, iframeWidth: Int64? = nil,
            requestorIDs: [String]? = nil
        ) {
            self.id = id
            self.providerID = providerID
            self.displayName = displayName
            self.logoURL = logoURL
            self.iframeHeight = iframeHeight
            self.iframeWidth = iframeWidth
            self.requestorIDs = requestorIDs
        }
    }

    /// Why a document does not follow Adobe's schema.
    package struct SchemaError: Error, Equatable, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = description }
    }

    /// The XSD's target namespace.
    package static let namespace = "http://tve.adobe.com/data/proxiedmvpd"
    /// The largest document accepted.
    package static let maxBytes = 1 << 20

    package var entries: [Entry]

    /// Creates the value from each of its stored properties.
    package init(entries: [Entry]) { self.entries = entries }

    /// Whether `id` follows Adobe's pattern `([a-zA-Z0-9]+((\-)|[_])*)+`: letters and digits, with dashes and
    /// underscores after the first character; at most 64 characters (an MVPD id here).
    package static func isValidID(_ id: String) -> Bool {
        guard let first = id.unicodeScalars.first, id.unicodeScalars.count <= 64, isAlphanumeric(first) else { return false }
        return id.unicodeScalars.allSatisfy { isAlphanumeric($0) || $0 == "-" || $0 == "_" }
    }

    private static func isAlphanumeric(_ c: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
    }

    /// Parses a pushed document; throws ``SchemaError`` when it does not follow the schema (duplicate ids included).
    package static func parse(xml: String) throws -> ProxiedMVPDList {
        guard xml.utf8.count <= maxBytes else { throw SchemaError("the document is larger than \(maxBytes) bytes") }
        let doc: XMLDoc
        do { doc = try XMLDoc(string: xml) } catch { throw SchemaError("not well-formed XML without a DOCTYPE: \(error)") }
        let root = doc.root
        let ns = root.namespaceURI
        guard ns == nil || ns == namespace else { throw SchemaError("the root element is in an unknown namespace") }
        guard root.localName == "proxiedMvpds" else { throw SchemaError("the root element is not proxiedMvpds") }
        try checkOnlyElements(root, ns: ns, attributes: [])
        var entries: [Entry] = []
        var seen = Set<String>()
        for element in root.childElements {
            guard element.localName == "proxiedMvpd" else { throw SchemaError("proxiedMvpds holds only proxiedMvpd elements") }
            let entry = try parseEntry(element, ns: ns)
            guard seen.insert(entry.id).inserted else { throw SchemaError("the proxied MVPD id \(entry.id) is not unique") }
            entries.append(entry)
        }
        return ProxiedMVPDList(entries: entries)
    }

    private static func parseEntry(_ element: xmlNodePtr, ns: String?) throws -> Entry {
        try checkOnlyElements(element, ns: ns, attributes: [])
        var fields: [String: xmlNodePtr] = [:]
        for child in element.childElements {
            let name = child.localName
            guard ["id", "displayName", "logoURL", "iframeSize", "requestorIds"].contains(name) else {
                throw SchemaError("proxiedMvpd has an unknown element \(name)")
            }
            guard fields.updateValue(child, forKey: name) == nil else { throw SchemaError("proxiedMvpd has more than one \(name)") }
        }
        guard let idElement = fields["id"], let nameElement = fields["displayName"], let logoElement = fields["logoURL"] else {
            throw SchemaError("proxiedMvpd needs id, displayName and logoURL")
        }
        try checkText(idElement, attributes: ["ProviderID"])
        try checkText(nameElement, attributes: [])
        try checkText(logoElement, attributes: [])
        let id = idElement.trimmedText
        guard isValidID(id) else { throw SchemaError("the proxied MVPD id \(id) does not match ([a-zA-Z0-9]+((\\-)|[_])*)+") }
        let providerID = idElement.attribute("ProviderID")
        if let providerID, !(1...128).contains(providerID.count) { throw SchemaError("ProviderID must be 1 to 128 characters") }
        let displayName = nameElement.trimmedText
        guard !displayName.isEmpty, displayName.count <= 200 else { throw SchemaError("displayName must be 1 to 200 characters") }
        let logo = logoElement.trimmedText
        if !logo.isEmpty {
            guard let url = URL(string: logo), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
                throw SchemaError("logoURL must be empty or an absolute http(s) URL")
            }
        }
        var entry = Entry(id: id, providerID: providerID, displayName: displayName, logoURL: logo)
        if let size = fields["iframeSize"] {
            try checkOnlyElements(size, ns: ns, attributes: [])
            var values: [String: Int64] = [:]
            for child in size.childElements {
                guard ["iframeHeight", "iframeWidth"].contains(child.localName) else { throw SchemaError("iframeSize has an unknown element") }
                try checkText(child, attributes: [])
                guard let value = Int32(child.trimmedText), value >= 0 else { throw SchemaError("\(child.localName) is not an int") }
                guard values.updateValue(Int64(value), forKey: child.localName) == nil else {
                    throw SchemaError("iframeSize has more than one \(child.localName)")
                }
            }
            guard let height = values["iframeHeight"], let width = values["iframeWidth"] else {
                throw SchemaError("iframeSize needs iframeHeight and iframeWidth")
            }
            (entry.iframeHeight, entry.iframeWidth) = (height, width)
        }
        if let list = fields["requestorIds"] {
            try checkOnlyElements(list, ns: ns, attributes: [])
            var ids: [String] = []
            for child in list.childElements {
                guard child.localName == "requestorId" else { throw SchemaError("requestorIds holds only requestorId elements") }
                try checkText(child, attributes: [])
                let requestor = child.trimmedText
                guard !requestor.isEmpty else { throw SchemaError("a requestorId is empty") }
                if !ids.contains(requestor) { ids.append(requestor) }
            }
            guard !ids.isEmpty else { throw SchemaError("requestorIds needs at least one requestorId") }
            entry.requestorIDs = ids
        }
        return entry
    }

    /// An element whose content is elements (and blanks) in the document's namespace, with no attributes but `attributes`.
    private static func checkOnlyElements(_ element: xmlNodePtr, ns: String?, attributes: Set<String>) throws {
        try checkAttributes(element, allowed: attributes)
        var child = element.pointee.children
        while let c = child {
            switch c.pointee.type {
            case XML_ELEMENT_NODE:
                guard c.namespaceURI == ns else { throw SchemaError("\(c.localName) is in another namespace than its document") }
            case XML_TEXT_NODE:
                let text = c.pointee.content.map { String(cString: $0) } ?? ""
                guard text.allSatisfy(\.isWhitespace) else { throw SchemaError("\(element.localName) holds text outside its elements") }
            case XML_COMMENT_NODE:
                break
            default:
                throw SchemaError("\(element.localName) holds content the schema does not allow")
            }
            child = c.pointee.next
        }
    }

    /// A simple-content element: text only, no attributes but `attributes`.
    private static func checkText(_ element: xmlNodePtr, attributes: Set<String>) throws {
        try checkAttributes(element, allowed: attributes)
        guard element.childElements.isEmpty else { throw SchemaError("\(element.localName) holds elements") }
    }

    private static func checkAttributes(_ element: xmlNodePtr, allowed: Set<String>) throws {
        var attr = element.pointee.properties
        while let a = attr {
            let name = a.pointee.name.map { String(cString: $0) } ?? ""
            guard a.pointee.ns == nil, allowed.contains(name) else { throw SchemaError("\(element.localName) has an unknown attribute \(name)") }
            attr = a.pointee.next
        }
    }

    /// The document as Adobe's examples show it (no namespace).
    package func xml() -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<proxiedMvpds>\n"
        for entry in entries {
            out += "    <proxiedMvpd>\n"
            out +=
                "        <id" + (entry.providerID.map { " ProviderID=\"\(XMLEscape.attribute($0))\"" } ?? "") + ">\(XMLEscape.text(entry.id))</id>\n"
            out += "        <displayName>\(XMLEscape.text(entry.displayName))</displayName>\n"
            out += "        <logoURL>\(XMLEscape.text(entry.logoURL))</logoURL>\n"
            if let height = entry.iframeHeight, let width = entry.iframeWidth {
                out += "        <iframeSize>\n            <iframeHeight>\(height)</iframeHeight>\n"
                out += "            <iframeWidth>\(width)</iframeWidth>\n        </iframeSize>\n"
            }
            if let requestors = entry.requestorIDs {
                out += "        <requestorIds>\n"
                for requestor in requestors { out += "            <requestorId>\(XMLEscape.text(requestor))</requestorId>\n" }
                out += "        </requestorIds>\n"
            }
            out += "    </proxiedMvpd>\n"
        }
        return out + "</proxiedMvpds>\n"
    }
}
