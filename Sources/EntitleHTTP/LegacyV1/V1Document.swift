import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// A REST API v1 answer body, written as XML or JSON from one tree (protocol notes §1.2, §3).
package indirect enum V1Value: Sendable {
    case string(String)
    case int(Int64)
    case bool(Bool)
    case null
    /// Fields in wire order.
    case object([(String, V1Value)])
    /// A list; in XML each item is an element named `element`.
    case array(element: String, [V1Value])
}

/// The answer format of a REST API v1 call.
package enum V1Format: String, Sendable {
    case xml, json

    /// `format=` (query or form) first, then `Accept`; XML when neither says (the documented default).
    package static func negotiate(format: String?, accept: String?) -> V1Format {
        if let format = format?.lowercased() {
            if format == "json" { return .json }
            if format == "xml" { return .xml }
        }
        let accept = accept?.lowercased() ?? ""
        if accept.contains("application/json") && !accept.contains("application/xml") { return .json }
        if accept.contains("json") && !accept.contains("xml") { return .json }
        return .xml
    }

    /// The answer format of a request to REST API v1 (negotiated) or adobe-services (XML, JSON for `usermetadata`);
    /// nil for any other protocol.
    package static func legacy(_ request: Request) -> V1Format? {
        let path = request.uri.path
        if path.hasPrefix("/adobe-services/") || path.hasPrefix("/indiv/") {
            return path == "/adobe-services/usermetadata" ? .json : .xml
        }
        guard path.hasPrefix("/api/v1/") || path.hasPrefix("/reggie/v1/") else { return nil }
        return negotiate(format: FormBody.query(of: request)["format"], accept: request.headers[.accept])
    }

    /// The content type of an answer.
    package var contentType: String { self == .json ? "application/json" : "application/xml" }
}

/// A whole answer: the tree and the XML root element (nil: the tree's single field is the root).
package struct V1Document: Sendable {
    /// The XML root element, optionally with attributes (`ns2:regcode xmlns:ns2="…"`).
    package var xmlRoot: String?
    /// The body.
    package var value: V1Value

    /// The body in a format.
    package func render(_ format: V1Format) -> String {
        switch format {
        case .json: return Self.json(value)
        case .xml:
            var out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            if let xmlRoot {
                let name = String(xmlRoot.split(separator: " ", maxSplits: 1)[0])
                out += "<\(xmlRoot)>" + Self.xmlChildren(value) + "</\(name)>"
            } else if case .object(let fields) = value {
                for (name, child) in fields { out += Self.xmlElement(name, child) }
            }
            return out
        }
    }

    /// A response with this body.
    package func response(_ format: V1Format, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = format.contentType
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: render(format))))
    }

    package static func json(_ value: V1Value) -> String {
        switch value {
        case .string(let text): return FastJSON.string(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .object(let fields): return "{" + fields.map { FastJSON.string($0.0) + ":" + json($0.1) }.joined(separator: ",") + "}"
        case .array(_, let items): return "[" + items.map(json).joined(separator: ",") + "]"
        }
    }

    package static func xmlElement(_ name: String, _ value: V1Value) -> String {
        if case .null = value { return "" }
        return "<\(name)>" + xmlChildren(value) + "</\(name)>"
    }

    package static func xmlChildren(_ value: V1Value) -> String {
        switch value {
        case .string(let text): return XMLEscape.html(text)
        case .int(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return ""
        case .object(let fields): return fields.map { xmlElement($0.0, $0.1) }.joined()
        case .array(let element, let items): return items.map { xmlElement(element, $0) }.joined()
        }
    }

    /// Creates the value from each of its stored properties.
    package init(xmlRoot: String? = nil, value: V1Value) {
        self.xmlRoot = xmlRoot
        self.value = value
    }
}

extension EnhancedError {
    /// The REST API v1 error body: `status`, `message`, `details` (null when none) and the Enhanced Error Code fields.
    package var v1Document: V1Document {
        V1Document(
            xmlRoot: "error",
            value: .object([
                ("status", .int(Int64(status))), ("code", .string(code.rawValue)), ("message", .string(message)),
                ("details", details.map(V1Value.string) ?? .null), ("helpUrl", .string(helpUrl)), ("trace", .string(trace)),
                ("action", .string(action.rawValue)),
            ]))
    }
}
