import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import SAML

/// The service as the issuer of SOAP XACML queries (notes §1.3(b), §1.4): the `saml:Issuer` it writes and the SAML SP
/// identity that signs queries (the one that signs AuthnRequests and the SP metadata).
package struct XACMLQueryIssuer: Sendable {
    /// The service's SAML entity id.
    package let entityID: String
    /// The SAML SP signing identity that signs now.
    package let signer: @Sendable () async throws -> SigningIdentity
    /// The clock (IssueInstant).
    package let clock: any ServiceClock

    /// Creates the value from each of its stored properties.
    package init(entityID: String, signer: @escaping @Sendable () async throws -> SigningIdentity, clock: any ServiceClock) {
        self.entityID = entityID
        self.signer = signer
        self.clock = clock
    }
}

/// How XACML is exchanged with one MVPD: its stored options and whether its SHA-1 signatures are accepted.
package struct XACMLCall: Sendable {
    /// Binding and signing.
    package var options = MVPDXACMLOptions.defaults
    /// Whether RSA-SHA1 signed answers are accepted (`--allow-rsa-sha1`).
    package var allowSHA1 = false
}

extension MVPDAuthorizationClient {
    /// Posts one XACML request context about `resources` (channel titles) in the MVPD's binding and parses every
    /// `Result` of its answer; a SOAP answer's signature and issuer are checked against the MVPD's metadata.
    package func xacmlExchange(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?, call: XACMLCall
    ) async -> Result<[XACML.Result], EnhancedError> {
        guard let url = mvpd.authorizationUrl else { return .failure(.invalidIntegration) }
        var request = Self.request(
            url, method: .POST, accept: Self.xmlAccept, contentType: "text/xml; charset=utf-8", mvpd: mvpd, bearer: bearer)
        guard call.options.binding == .soap else {
            request.body = .bytes(ByteBuffer(string: XACML.request(userID: userID, resources: resources, ipAddress: clientIP)))
            return await results(request, mvpd: mvpd)
        }
        switch await soapQuery(url: url, userID: userID, resources: resources, clientIP: clientIP, sign: call.options.signQueries) {
        case .failure(let error): return .failure(error)
        case .success(let body): request.body = .bytes(ByteBuffer(string: body))
        }
        request.headers.add(name: "SOAPAction", value: "\"\"")
        let certificates = mvpd.certificates.compactMap { try? parseCertificatePEMOrBase64DER($0) }
        let trust = XACML.AnswerTrust(certificates: certificates, issuer: mvpd.kind == .saml ? mvpd.entityId : nil, allowSHA1: call.allowSHA1)
        return await results(request, mvpd: mvpd, trust: trust)
    }

    /// The SOAP envelope of a query (subject as `subject-id`, as in the OLCA samples), signed when `sign`.
    private func soapQuery(url: String, userID: String, resources: [String], clientIP: String?, sign: Bool) async -> Result<String, EnhancedError> {
        guard let issuer = queryIssuer else { return .failure(.invalidIntegration) }
        let context = XACML.request(userID: userID, subjectForm: .id, resources: resources, ipAddress: clientIP)
        let id = "_" + Secrets.randomHex(bytes: 16)
        let instant = Self.instant(issuer.clock.now())
        guard sign else {
            return .success(XACML.soapQuery(request: context, issuer: issuer.entityID, destination: url, id: id, issueInstant: instant))
        }
        do {
            let signer = try await issuer.signer()
            return .success(
                try XACML.signedSOAPQuery(request: context, issuer: issuer.entityID, destination: url, id: id, issueInstant: instant, signer: signer))
        } catch {
            return .failure(EnhancedError.internalServerError.with(details: "The authorization query could not be signed."))
        }
    }

    /// `xs:dateTime` in UTC with seconds, as SAML writes IssueInstant.
    package static func instant(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }
}
