import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import NIOHTTP1

/// The authorization adapter of a SAML MVPD: `POST {authorizationURL}` with a bearer key and
/// `{"userID", "resource"}`, answered with `{"authorized", "reason", "message"}`.
package struct MVPDAuthorizationClient: Sendable {
    /// The MVPD's answer for one resource.
    package enum Verdict: Equatable, Sendable {
        case authorized
        /// Authorized with what the MVPD's permit carried: ask again after `seconds` (an XACML `re-authz` obligation, the
        /// MVPD's TTL; nil: the configured one) and the subscriber's rating limits by scheme (`MPAA`, `VCHIP`): user
        /// metadata delivered at authorization.
        case authorizedFor(seconds: Int64?, maxRating: [String: String])
        case denied(parentalControls: Bool, message: String?)
        case failed(EnhancedError)
    }

    package struct Answer: Decodable {
        package var authorized: Bool
        package var reason: String?
        package var message: String?

        /// Creates the value from each of its stored properties.
        package init(authorized: Bool, reason: String? = nil, message: String? = nil) {
            self.authorized = authorized
            self.reason = reason
            self.message = message
        }
    }

    package let httpClient: HTTPClient
    package let timeoutSeconds: Int64
    /// The service as the issuer of SOAP XACML queries (its entity id, SP signing key, clock); nil: SOAP is refused.
    package var queryIssuer: XACMLQueryIssuer? = nil

    /// Asks the MVPD by its configured protocol; `clientIP` is the device's address as the service saw it; `bearer`
    /// (an OAuth 2.0 MVPD's access token for the user) replaces the MVPD's API key; `xacml` says how XACML travels.
    package func authorize(
        mvpd: MVPDRecord, userID: String, resource: String, kind: MVPDAuthorizationProtocol = .entitleJSON, clientIP: String? = nil,
        bearer: String? = nil, xacml: XACMLCall = XACMLCall()
    ) async -> Verdict {
        switch kind {
        case .xacml:
            return await authorizeXACML(mvpd: mvpd, userID: userID, resource: resource, clientIP: clientIP, bearer: bearer, call: xacml)
        case .rest: return await authorizeREST(mvpd: mvpd, userID: userID, resource: resource, clientIP: clientIP, bearer: bearer)
        case .noCall: return .authorized
        case .entitleJSON: return await authorizeJSON(mvpd: mvpd, userID: userID, resource: resource, bearer: bearer)
        }
    }

    /// A request to the MVPD's authorization endpoint, with its API key when it has one.
    package static func request(
        _ url: String, method: HTTPMethod, accept: String, contentType: String? = nil, mvpd: MVPDRecord, bearer: String? = nil
    ) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        request.headers.add(name: "Accept", value: accept)
        if let key = bearer ?? mvpd.authorizationKey { request.headers.add(name: "Authorization", value: "Bearer " + key) }
        return request
    }

    /// Entitle's JSON contract.
    package func authorizeJSON(mvpd: MVPDRecord, userID: String, resource: String, bearer: String? = nil) async -> Verdict {
        guard let url = mvpd.authorizationUrl else { return .failed(.invalidIntegration) }
        var request = Self.request(url, method: .POST, accept: "application/json", contentType: "application/json", mvpd: mvpd, bearer: bearer)
        request.body = .bytes(ByteBuffer(data: JSONCoding.encode(["userID": userID, "resource": resource])))
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(timeoutSeconds))
            let body = try await response.body.collect(upTo: 64 * 1024)
            guard response.status == .ok, let answer = try? JSONDecoder().decode(Answer.self, from: Data(buffer: body)) else {
                return .failed(EnhancedError.networkReceivedError.with(details: "The TV provider answered with HTTP \(response.status.code)."))
            }
            if answer.authorized { return .authorized }
            // The MVPD does not know the user: not a denial of the resource, the sign-in is no good.
            if answer.reason == "unknown_user" { return .failed(EnhancedError.identityNotRecognizedByMVPD.with(details: answer.message)) }
            return .denied(parentalControls: answer.reason == "parental_controls", message: answer.message)
        } catch let error as HTTPClientError where error == .connectTimeout {
            return .failed(.networkConnectionTimeout)
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            // Connected (or still connecting) when the time allowed for the whole call ran out.
            return .failed(.maximumExecutionTimeExceeded)
        } catch {
            return .failed(EnhancedError.networkReceivedError.with(details: "The TV provider could not be reached."))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(httpClient: HTTPClient, timeoutSeconds: Int64, queryIssuer: XACMLQueryIssuer? = nil) {
        self.httpClient = httpClient
        self.timeoutSeconds = timeoutSeconds
        self.queryIssuer = queryIssuer
    }
}
