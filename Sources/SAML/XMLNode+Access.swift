import CLibXML2
import Foundation

/// Read-only navigation of libxml2 element nodes (plus `setText` for filling signature templates).
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
