import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import NIOHTTP1
import SAML

/// XACML 2.0 and the REST form (Adobe's MVPD integration guide; see `docs/mvpd-protocols.md`).
extension MVPDAuthorizationClient {
    /// The largest answer read from an MVPD.
    package static let maximumAnswerBytes = 256 * 1024
    package static let xmlAccept = "text/xml, application/xml"

    /// `POST {authorizationURL}` with an XACML 2.0 request context (`text/xml`), bare or in the SOAP binding, answered
    /// with an XACML response.
    package func authorizeXACML(
        mvpd: MVPDRecord, userID: String, resource: String, clientIP: String?, bearer: String? = nil, call: XACMLCall = XACMLCall()
    ) async -> Verdict {
        switch await xacmlExchange(
            mvpd: mvpd, userID: userID, resources: [Self.channelOrResource(resource)], clientIP: clientIP, bearer: bearer, call: call)
        {
        case .success(let results): return Self.verdict(results[0], mvpdName: mvpd.displayName)
        case .failure(let error): return .failed(error)
        }
    }

    /// `GET {authorizationURL}?uuID=…&mrss=…&IPAddress=…` (MRSS base64; a plain channel id is wrapped in RSS).
    package func authorizeREST(mvpd: MVPDRecord, userID: String, resource: String, clientIP: String?, bearer: String? = nil) async -> Verdict {
        guard let url = Self.restURL(mvpd: mvpd, userID: userID, resources: [resource], clientIP: clientIP) else {
            return .failed(.invalidIntegration)
        }
        return await exchange(Self.request(url, method: .GET, accept: Self.xmlAccept, mvpd: mvpd, bearer: bearer), mvpd: mvpd)
    }

    /// The REST form's URL: the authorization URL with `uuID`, one base64 `mrss` per resource and `IPAddress`.
    package static func restURL(mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?) -> String? {
        guard let base = mvpd.authorizationUrl, var components = URLComponents(string: base) else { return nil }
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "uuID", value: userID))
        for resource in resources { items.append(URLQueryItem(name: "mrss", value: Data(Self.mrss(resource).utf8).base64EncodedString())) }
        if let clientIP { items.append(URLQueryItem(name: "IPAddress", value: clientIP)) }
        components.percentEncodedQuery = items.map { item in
            "\(Self.formEncode(item.name))=\(Self.formEncode(item.value ?? ""))"
        }.joined(separator: "&")
        return components.string
    }

    /// Sends the request and maps the XACML answer; every failure names the MVPD.
    private func exchange(_ request: HTTPClientRequest, mvpd: MVPDRecord) async -> Verdict {
        switch await results(request, mvpd: mvpd) {
        case .success(let results): return Self.verdict(results[0], mvpdName: mvpd.displayName)
        case .failure(let error): return .failed(error)
        }
    }

    /// Sends the request and parses every `Result` of the XACML answer; every failure names the MVPD.
    package func results(_ request: HTTPClientRequest, mvpd: MVPDRecord, trust: XACML.AnswerTrust? = nil) async -> Result<
        [XACML.Result], EnhancedError
    > {
        let name = mvpd.displayName
        do {
            let response = try await httpClient.execute(request, timeout: .seconds(timeoutSeconds))
            let body = try await response.body.collect(upTo: Self.maximumAnswerBytes)
            guard response.status == .ok else {
                return .failure(
                    EnhancedError.networkReceivedError.with(details: "The TV provider \(name) answered with HTTP \(response.status.code)."))
            }
            do throws(XACML.MalformedResponse) {
                let text = String(buffer: body)
                if let trust { return .success(try XACML.parseResponse(text, trust: trust)) }
                return .success(try XACML.parseResponse(text))
            } catch {
                return .failure(EnhancedError.networkReceivedError.with(details: "The TV provider \(name) answered malformed XACML: \(error.reason)"))
            }
        } catch let error as HTTPClientError where error == .connectTimeout {
            return .failure(EnhancedError.networkConnectionTimeout.with(details: "The TV provider \(name) could not be connected to in time."))
        } catch let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout {
            return .failure(EnhancedError.maximumExecutionTimeExceeded.with(details: "The TV provider \(name) did not answer in time."))
        } catch {
            return .failure(EnhancedError.networkReceivedError.with(details: "The TV provider \(name) could not be reached."))
        }
    }

    /// Maps one XACML result: Permit → authorized; Deny → denied (parental controls with `restrict-pc`);
    /// NotApplicable → denied; Indeterminate, an unknown decision or a non-ok status → failed.
    package static func verdict(_ result: XACML.Result, mvpdName: String) -> Verdict {
        let ok = result.statusCode == nil || result.statusCode == "urn:oasis:names:tc:xacml:1.0:status:ok"
        switch result.decision {
        case "Permit" where ok:
            // The MVPD's own TTL (a `re-authz` obligation) wins over the integration's configured one.
            let seconds = result.reAuthorizationSeconds.map { max(0, $0) }
            let ratings = result.maxRatings
            return seconds == nil && ratings.isEmpty ? .authorized : .authorizedFor(seconds: seconds, maxRating: ratings)
        case "Deny" where ok, "NotApplicable" where ok:
            let parental = result.obligations.contains { $0.id == XACML.restrictParentalControls }
            let upgrade = result.obligations.contains { $0.id == XACML.upgrade }
            let message = result.statusMessage ?? (upgrade ? "Your subscription with \(mvpdName) does not include this content." : nil)
            return .denied(parentalControls: parental, message: message)
        default:
            let status = result.statusCode.map { " (\($0))" } ?? ""
            return .failed(
                EnhancedError.networkReceivedError.with(
                    details: "The TV provider \(mvpdName) gave no decision: \(result.decision.isEmpty ? "empty" : result.decision)\(status)."))
        }
    }

    /// The XACML resource id: the channel title of an MRSS resource (most MVPDs authorize by channel), else the id.
    package static func channelOrResource(_ raw: String) -> String {
        (try? ProtectedResource(parsing: raw))?.channel ?? raw
    }

    /// The MRSS of a resource: as given, or a plain channel id wrapped in RSS.
    package static func mrss(_ raw: String) -> String {
        if raw.trimmingCharacters(in: .whitespaces).hasPrefix("<") { return raw }
        return "<rss version=\"2.0\" xmlns:media=\"http://search.yahoo.com/mrss/\"><channel><title>\(XACML.escape(raw))</title></channel></rss>"
    }

    /// `application/x-www-form-urlencoded` encoding of one name or value.
    package static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
