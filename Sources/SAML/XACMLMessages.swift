import CLibXML2
import Foundation

/// XACML 2.0 authorization messages exchanged with an MVPD's Policy Decision Point (Adobe's MVPD integration guide,
/// `authz-usecase.md`, `mvpd-content-metadata-exchange.md`, `mvpd-preflight-authz.md`).
package enum XACML {
    /// The XACML 2.0 context namespace.
    package static let contextNamespace = "urn:oasis:names:tc:xacml:2.0:context:schema:os"
    /// The XACML 2.0 policy namespace (obligations).
    package static let policyNamespace = "urn:oasis:names:tc:xacml:2.0:policy:schema:os"
    /// Deny obligation: the subscriber failed a parental-control check.
    package static let restrictParentalControls = "urn:tve:xacml:2.0:obligations:restrict-pc"
    /// Deny obligation: the subscription level is too low.
    package static let upgrade = "urn:tve:xacml:2.0:obligations:upgrade"
    /// Permit obligation suffix: authorize again after n seconds (`olca` and `ocla` prefixes are both seen).
    package static let reAuthorizationSuffix = ":1.0:obligations:re-authz"

    /// How the subject is named in the request: `subject-token` (base64Binary, the authorization use case) or
    /// `subject-id` with the access-subject category (the preflight sample).
    package enum SubjectForm: String, Sendable {
        case token = "subject-token"
        case id = "subject-id"
    }

    /// An XACML 2.0 request context for one or more resources (several `<Resource>` elements: multi-channel preflight).
    package static func request(userID: String, subjectForm: SubjectForm = .token, resources: [String], ipAddress: String?) -> String {
        let subjectValue = subjectForm == .token ? Data(userID.utf8).base64EncodedString() : userID
        let subjectType = subjectForm == .token ? "http://www.w3.org/2001/XMLSchema#base64Binary" : "http://www.w3.org/2001/XMLSchema#string"
        var xml = "<xacml-context:Request xmlns:xacml-context=\"\(contextNamespace)\">"
        xml +=
            "<xacml-context:Subject SubjectCategory=\"urn:oasis:names:tc:xacml:1.0:subject-category:access-subject\">"
            + "<xacml-context:Attribute AttributeId=\"urn:oasis:names:tc:xacml:1.0:subject:\(subjectForm.rawValue)\" DataType=\"\(subjectType)\">"
            + "<xacml-context:AttributeValue>\(escape(subjectValue))</xacml-context:AttributeValue></xacml-context:Attribute></xacml-context:Subject>"
        for resource in resources {
            xml +=
                "<xacml-context:Resource><xacml-context:Attribute AttributeId=\"urn:oasis:names:tc:xacml:1.0:resource:resource-id\""
                + " DataType=\"http://www.w3.org/2001/XMLSchema#string\"><xacml-context:AttributeValue>\(escape(resource))"
                + "</xacml-context:AttributeValue></xacml-context:Attribute></xacml-context:Resource>"
        }
        xml +=
            "<xacml-context:Action><xacml-context:Attribute AttributeId=\"urn:oasis:names:tc:xacml:1.0:action:action-id\""
            + " DataType=\"http://www.w3.org/2001/XMLSchema#string\"><xacml-context:AttributeValue>VIEW</xacml-context:AttributeValue>"
            + "</xacml-context:Attribute></xacml-context:Action><xacml-context:Environment>"
        if let ipAddress {
            xml +=
                "<xacml-context:Attribute AttributeId=\"urn:oasis:names:tc:xacml:1.0:subject:authn-locality:ip-address\""
                + " DataType=\"http://www.w3.org/2001/XMLSchema#string\"><xacml-context:AttributeValue>\(escape(ipAddress))"
                + "</xacml-context:AttributeValue></xacml-context:Attribute>"
        }
        xml += "</xacml-context:Environment></xacml-context:Request>"
        return xml
    }

    /// The OLCA SOAP form: `soap11:Envelope` → `XACMLAuthzDecisionQuery` with the SP's issuer around `request`.
    package static func soapQuery(request: String, issuer: String, destination: String, id: String, issueInstant: String) -> String {
        "<soap11:Envelope xmlns:soap11=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap11:Body>"
            + "<xacml-samlp:XACMLAuthzDecisionQuery xmlns:xacml-samlp=\"urn:oasis:names:tc:xacml:2.0:profile:saml2.0:v2:schema:protocol\""
            + " xmlns:saml=\"urn:oasis:names:tc:SAML:2.0:assertion\" ID=\"\(escape(id))\" IssueInstant=\"\(escape(issueInstant))\""
            + " Version=\"2.0\" Destination=\"\(escape(destination))\" CombinePolicies=\"false\"><saml:Issuer>\(escape(issuer))</saml:Issuer>"
            + request + "</xacml-samlp:XACMLAuthzDecisionQuery></soap11:Body></soap11:Envelope>"
    }

    /// One obligation of a result.
    package struct Obligation: Sendable, Equatable {
        /// `ObligationId`.
        package var id: String
        /// `FulfillOn` (`Permit` or `Deny`).
        package var fulfillOn: String?
        /// `AttributeAssignment` values by `AttributeId`.
        package var assignments: [String: String]
    }

    /// One `<Result>` of a response.
    package struct Result: Sendable, Equatable {
        /// `ResourceId` attribute (multi-resource answers), if any.
        package var resourceID: String?
        /// `Permit`, `Deny`, `NotApplicable`, `Indeterminate` (kept as sent).
        package var decision: String
        /// The `StatusCode` value, if any.
        package var statusCode: String?
        /// The `StatusMessage`, if any.
        package var statusMessage: String?
        /// Obligations.
        package var obligations: [Obligation]

        /// The rating limits a permit carries, by scheme (`MPAA`, `VCHIP`): the obligation attribute assignments
        /// `urn:cablelabs:ocla:1.0:attribute:content:ratings:maxMPAA` and `…:maxVCHIP` (Comcast; `olca` spelling too).
        package var maxRatings: [String: String] {
            var ratings: [String: String] = [:]
            for obligation in obligations where obligation.fulfillOn != "Deny" {
                for (id, value) in obligation.assignments where id.hasPrefix("urn:cablelabs:") && !value.isEmpty {
                    if id.hasSuffix(":1.0:attribute:content:ratings:maxMPAA") { ratings["MPAA"] = value }
                    if id.hasSuffix(":1.0:attribute:content:ratings:maxVCHIP") { ratings["VCHIP"] = value }
                }
            }
            return ratings
        }

        /// Seconds of a `re-authz` obligation, if given.
        package var reAuthorizationSeconds: Int64? {
            for obligation in obligations where obligation.id.hasSuffix(XACML.reAuthorizationSuffix) {
                if let value = obligation.assignments.values.compactMap({ Int64($0.trimmingCharacters(in: .whitespaces)) }).first {
                    return value
                }
            }
            return nil
        }
    }

    /// A malformed XACML answer.
    package struct MalformedResponse: Error, Sendable {
        /// What was wrong.
        package var reason: String
    }

    /// Parses an XACML 2.0 response, bare or inside a SOAP / SAML wrapper (a SAML `Response` → `Assertion` →
    /// `XACMLAuthzDecisionStatement`): every `Result` element of the context namespace (or the `xacm` misspelling).
    package static func parseResponse(_ xml: String) throws(MalformedResponse) -> [Result] {
        let document: XMLDoc
        do { document = try XMLDoc(string: xml) } catch { throw MalformedResponse(reason: "The answer is not well-formed XML.") }
        let results = resultNodes(document.root).map(result)
        guard !results.isEmpty else { throw MalformedResponse(reason: "The answer has no XACML Result.") }
        return results
    }

    /// Every `Result` element of the context namespace under `root`, in document order.
    static func resultNodes(_ root: xmlNodePtr) -> [xmlNodePtr] {
        var nodes: [xmlNodePtr] = []
        root.walkElements { node in
            if node.localName == "Result", isContext(node.namespaceURI) { nodes.append(node) }
        }
        return nodes
    }

    /// One `Result` element read.
    static func result(_ node: xmlNodePtr) -> Result {
        let decision = node.childElements.first { $0.localName == "Decision" }?.trimmedText ?? ""
        let status = node.childElements.first { $0.localName == "Status" }
        let code = status?.childElements.first { $0.localName == "StatusCode" }?.attribute("Value")
        let message = status?.childElements.first { $0.localName == "StatusMessage" }?.trimmedText
        var obligations: [Obligation] = []
        node.walkElements { element in
            guard element.localName == "Obligation", let id = element.attribute("ObligationId") else { return }
            var assignments: [String: String] = [:]
            for assignment in element.childElements where assignment.localName == "AttributeAssignment" {
                assignments[assignment.attribute("AttributeId") ?? ""] = assignment.trimmedText
            }
            obligations.append(Obligation(id: id, fulfillOn: element.attribute("FulfillOn"), assignments: assignments))
        }
        return Result(
            resourceID: node.attribute("ResourceId"), decision: decision, statusCode: code,
            statusMessage: message?.isEmpty == true ? nil : message, obligations: obligations)
    }

    /// Whether a namespace is XACML 2.0's context namespace (Adobe's sample misspells `xacml` as `xacm`).
    static func isContext(_ namespace: String?) -> Bool {
        guard let namespace else { return false }
        return namespace == contextNamespace || namespace == "urn:oasis:names:tc:xacm:2.0:context:schema:os"
            || namespace == "urn:oasis:names:tc:xacml:2.0:context:schema:xacm"
    }

    /// XML text / attribute escaping.
    package static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }
}
