import CLibXML2
import Foundation

/// Exclusive XML Canonicalization 1.0 (with or without comments) of one element subtree, optionally leaving out
/// one descendant (the enveloped ds:Signature), through libxml2's `xmlC14NExecute` with a visibility callback —
/// the same node-set semantics xmlsec uses, so namespaces declared on ancestors and visibly used are rendered.
enum XMLCanonicalizer {
    private struct Context {
        var apex: xmlNodePtr
        var excluded: xmlNodePtr?
    }

    private static let typeOffset = MemoryLayout<xmlNode>.offset(of: \xmlNode.type)!

    private static let isVisible: xmlC14NIsVisibleCallback = { userData, node, parent in
        guard let userData, let node else { return 0 }
        let context = userData.assumingMemoryBound(to: Context.self).pointee
        // xmlNs and xmlNode share the layout of their first two fields; read only `type`, never the whole struct.
        let type = UnsafeRawPointer(node).load(fromByteOffset: XMLCanonicalizer.typeOffset, as: xmlElementType.self)
        var current: xmlNodePtr? = (type == XML_NAMESPACE_DECL || type == XML_ATTRIBUTE_NODE) ? parent : node
        while let c = current {
            if c == context.excluded { return 0 }
            if c == context.apex { return 1 }
            current = c.pointee.parent
        }
        return 0
    }

    /// Canonical bytes of `apex`'s subtree without `excluding`'s subtree.
    static func canonicalize(
        _ doc: XMLDoc, apex: xmlNodePtr, excluding: xmlNodePtr? = nil,
        inclusivePrefixes: [String] = [], withComments: Bool = false
    ) throws -> [UInt8] {
        _ = LibXML.initialized
        guard let output = xmlAllocOutputBuffer(nil) else {
            throw SAMLError.malformed("cannot allocate canonicalization buffer")
        }
        var context = Context(apex: apex, excluded: excluding)
        let prefixStorage: [UnsafeMutablePointer<xmlChar>?] =
            inclusivePrefixes.map { prefix in
                let bytes = Array(prefix.utf8) + [0]
                let p = UnsafeMutablePointer<xmlChar>.allocate(capacity: bytes.count)
                p.initialize(from: bytes, count: bytes.count)
                return p
            } + [nil]
        defer { for p in prefixStorage { p?.deallocate() } }
        var prefixes = prefixStorage
        let status: Int32 = withUnsafeMutablePointer(to: &context) { ctx in
            prefixes.withUnsafeMutableBufferPointer { list in
                xmlC14NExecute(
                    doc.doc, isVisible, ctx,
                    Int32(XML_C14N_EXCLUSIVE_1_0.rawValue),
                    inclusivePrefixes.isEmpty ? nil : list.baseAddress,
                    withComments ? 1 : 0, output)
            }
        }
        defer { xmlOutputBufferClose(output) }
        guard status >= 0 else { throw SAMLError.malformed("canonicalization failed") }
        let size = Int(xmlOutputBufferGetSize(output))
        guard size > 0, let content = xmlOutputBufferGetContent(output) else { return [] }
        return Array(UnsafeBufferPointer(start: content, count: size))
    }
}
