import CLibXML2
import Foundation

/// The PDP side of XACML 2.0, for the DemoMVPD: reading a request context and writing a response.
extension XACML {
    /// What a PDP reads from a request context.
    package struct Question: Sendable, Equatable {
        /// The subject (decoded from base64 when sent as `subject-token`).
        package var subject: String
        /// Every `resource-id`, one per `<Resource>`.
        package var resources: [String]
        /// The environment's client IP address, if given.
        package var ipAddress: String?
    }

    /// Reads a request context, bare or inside a SOAP `XACMLAuthzDecisionQuery`.
    package static func parseRequest(_ xml: String) throws(MalformedResponse) -> Question {
        let document: XMLDoc
        do { document = try XMLDoc(string: xml) } catch { throw MalformedResponse(reason: "The request is not well-formed XML.") }
        return try question(in: document.root)
    }

    /// The subject, resources and IP address of the request context at or under `root`.
    static func question(in root: xmlNodePtr) throws(MalformedResponse) -> Question {
        var subject: String?
        var resources: [String] = []
        var ipAddress: String?
        root.walkElements { node in
            guard node.localName == "Attribute", isContext(node.namespaceURI), let id = node.attribute("AttributeId") else { return }
            let value = node.childElements.first { $0.localName == "AttributeValue" }?.trimmedText ?? ""
            switch id {
            case "urn:oasis:names:tc:xacml:1.0:subject:subject-token":
                subject = Data(base64Encoded: value).map { String(decoding: $0, as: UTF8.self) }
            case "urn:oasis:names:tc:xacml:1.0:subject:subject-id": subject = value
            case "urn:oasis:names:tc:xacml:1.0:resource:resource-id": resources.append(value)
            case "urn:oasis:names:tc:xacml:1.0:subject:authn-locality:ip-address": ipAddress = value
            default: break
            }
        }
        guard let subject, !subject.isEmpty, !resources.isEmpty else {
            throw MalformedResponse(reason: "The request has no subject or no resource.")
        }
        return Question(subject: subject, resources: resources, ipAddress: ipAddress)
    }

    /// An XACML 2.0 response with one `Result` per entry (a deny obligation id and a message where given).
    package static func response(_ results: [(resource: String, permit: Bool, obligation: String?, message: String?)]) -> String {
        var xml = "<xacml-context:Response xmlns:xacml-context=\"\(contextNamespace)\" xmlns:xacml=\"\(policyNamespace)\">"
        for result in results {
            xml += "<xacml-context:Result ResourceId=\"\(escape(result.resource))\"><xacml-context:Decision>"
            xml += result.permit ? "Permit" : "Deny"
            xml += "</xacml-context:Decision><xacml-context:Status><xacml-context:StatusCode Value=\"urn:oasis:names:tc:xacml:1.0:status:ok\"/>"
            if let message = result.message { xml += "<xacml-context:StatusMessage>\(escape(message))</xacml-context:StatusMessage>" }
            xml += "</xacml-context:Status>"
            if let obligation = result.obligation {
                xml +=
                    "<xacml:Obligations><xacml:Obligation ObligationId=\"\(escape(obligation))\" FulfillOn=\"\(result.permit ? "Permit" : "Deny")\"/></xacml:Obligations>"
            }
            xml += "</xacml-context:Result>"
        }
        return xml + "</xacml-context:Response>"
    }
}
