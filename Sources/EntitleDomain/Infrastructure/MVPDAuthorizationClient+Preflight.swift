import AsyncHTTPClient
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation
import NIOCore
import SAML

/// Preflight in one call (Adobe's "multi-channel AuthZ", notes §3): one XACML 2.0 request context with a `<Resource>`
/// per resource (bare or in the SOAP binding), or the REST form with one `mrss` per resource, answered with one `Result`
/// per resource.
extension MVPDAuthorizationClient {
    /// Asks about every resource at once; the verdicts are in the order of `resources`. A `Result` is matched by its
    /// `ResourceId` (the channel title, as sent), else by position when the answer has one result per resource; a
    /// resource the answer says nothing about fails with `network_received_error` naming the MVPD.
    package func preflightXACML(
        mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?, call: XACMLCall = XACMLCall()
    ) async -> [Verdict] {
        let ids = resources.map(Self.channelOrResource)
        let answer = await xacmlExchange(mvpd: mvpd, userID: userID, resources: ids, clientIP: clientIP, bearer: bearer, call: call)
        return Self.match(answer, ids: ids, mvpd: mvpd)
    }

    /// The REST preflight form (Entitle's choice; the guide documents none): the REST GET with one `mrss` parameter per
    /// resource, `GET {authorizationURL}?uuID=…&mrss=…&mrss=…&IPAddress=…`, answered like the XACML preflight, one
    /// `Result` per resource whose `ResourceId` is the resource's channel title.
    package func preflightREST(mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?) async -> [Verdict] {
        let ids = resources.map(Self.channelOrResource)
        guard let url = Self.restURL(mvpd: mvpd, userID: userID, resources: resources, clientIP: clientIP) else {
            return resources.map { _ in .failed(.invalidIntegration) }
        }
        let answer = await results(Self.request(url, method: .GET, accept: Self.xmlAccept, mvpd: mvpd, bearer: bearer), mvpd: mvpd)
        return Self.match(answer, ids: ids, mvpd: mvpd)
    }

    /// Matches the results of one multi-resource answer to the resources asked (`ids`, in order).
    package static func match(_ answer: Result<[XACML.Result], EnhancedError>, ids: [String], mvpd: MVPDRecord) -> [Verdict] {
        switch answer {
        case .failure(let error):
            return ids.map { _ in .failed(error) }
        case .success(let results):
            let byID = Dictionary(results.compactMap { result in result.resourceID.map { ($0, result) } }, uniquingKeysWith: { first, _ in first })
            return ids.enumerated().map { index, id in
                if let result = byID[id] ?? (byID.isEmpty && results.count == ids.count ? results[index] : nil) {
                    return Self.verdict(result, mvpdName: mvpd.displayName)
                }
                return .failed(EnhancedError.networkReceivedError.with(details: "The TV provider \(mvpd.displayName) gave no decision for \(id)."))
            }
        }
    }
}
