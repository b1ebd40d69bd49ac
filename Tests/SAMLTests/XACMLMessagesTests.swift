import Foundation
import Testing

@testable import SAML

/// XACML answers written by hand from the MVPD integration notes (detail file: Comcast's multi-resource form, the
/// `ocla` spelling, the misspelt `xacm` namespace), read by ``XACML/parseResponse(_:)``.
@Suite struct XACMLMessagesTests {
    @Test func multiResourceAnswerGivesOneResultPerResourceWithObligations() throws {
        let xml = """
            <xacml-context:Response xmlns:xacml-context="urn:oasis:names:tc:xacml:2.0:context:schema:os">
              <xacml-context:Result ResourceId="CNN"><xacml-context:Decision>Permit</xacml-context:Decision>
                <xacml-context:Status><xacml-context:StatusCode Value="urn:oasis:names:tc:xacml:1.0:status:ok"/></xacml-context:Status>
                <xacml:Obligations xmlns:xacml="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
                  <xacml:Obligation ObligationId="urn:cablelabs:ocla:1.0:obligations:re-authz" FulfillOn="Permit">
                    <xacml:AttributeAssignment AttributeId="ttl" DataType="http://www.w3.org/2001/XMLSchema#integer"> 900 </xacml:AttributeAssignment>
                  </xacml:Obligation></xacml:Obligations></xacml-context:Result>
              <xacml-context:Result ResourceId="HBO"><xacml-context:Decision>Deny</xacml-context:Decision>
                <xacml:Obligations xmlns:xacml="urn:oasis:names:tc:xacml:2.0:policy:schema:os">
                  <xacml:Obligation ObligationId="urn:tve:xacml:2.0:obligations:upgrade" FulfillOn="Deny"/></xacml:Obligations>
              </xacml-context:Result>
            </xacml-context:Response>
            """
        let results = try XACML.parseResponse(xml)
        #expect(results.map(\.resourceID) == ["CNN", "HBO"])
        #expect(results.map(\.decision) == ["Permit", "Deny"])
        #expect(results[0].reAuthorizationSeconds == 900)
        #expect(results[0].statusCode == "urn:oasis:names:tc:xacml:1.0:status:ok")
        #expect(results[1].obligations.map(\.id) == ["urn:tve:xacml:2.0:obligations:upgrade"])
        #expect(results[1].obligations[0].fulfillOn == "Deny")
    }

    @Test func adobesMisspeltNamespaceIsRead() throws {
        let xml = "<Response xmlns=\"urn:oasis:names:tc:xacm:2.0:context:schema:os\"><Result><Decision>NotApplicable</Decision></Result></Response>"
        #expect(try XACML.parseResponse(xml).map(\.decision) == ["NotApplicable"])
    }

    @Test func badAnswersAreMalformed() {
        for bad in [
            "", "not xml", "<Response xmlns=\"urn:other\"><Result><Decision>Permit</Decision></Result></Response>",
            "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x \"y\">]><Response/>",
        ] {
            #expect(throws: XACML.MalformedResponse.self) { try XACML.parseResponse(bad) }
        }
    }

    @Test func requestEscapesItsValues() {
        let xml = XACML.request(userID: "u<1>", subjectForm: .id, resources: ["a&b"], ipAddress: "10.0.0.1")
        #expect(xml.contains(">u&lt;1&gt;<"))
        #expect(xml.contains(">a&amp;b<"))
        #expect(xml.contains("urn:oasis:names:tc:xacml:1.0:subject:subject-id"))
    }
}
