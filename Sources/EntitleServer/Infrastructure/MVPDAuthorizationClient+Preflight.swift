import AsyncHTTPClient
import EntitleCore
import Foundation
import NIOCore
import SAML

/// Preflight in one call (Adobe's "multi-channel AuthZ", notes §3): one XACML 2.0 request context with a `<Resource>`
/// per resource, answered with one `Result` per resource.
extension MVPDAuthorizationClient {
    /// Asks about every resource at once; the verdicts are in the order of `resources`. A `Result` is matched by its
    /// `ResourceId` (the channel title, as sent), else by position when the answer has one result per resource; a
    /// resource the answer says nothing about fails with `network_received_error` naming the MVPD.
    func preflightXACML(mvpd: MVPDRecord, userID: String, resources: [String], clientIP: String?, bearer: String?) async -> [Verdict] {
        guard let url = mvpd.authorizationUrl else { return resources.map { _ in .failed(.invalidIntegration) } }
        var request = Self.request(
            url, method: .POST, accept: Self.xmlAccept, contentType: "text/xml; charset=utf-8", mvpd: mvpd, bearer: bearer)
        let ids = resources.map(Self.channelOrResource)
        request.body = .bytes(ByteBuffer(string: XACML.request(userID: userID, resources: ids, ipAddress: clientIP)))
        switch await results(request, mvpd: mvpd) {
        case .failure(let error):
            return resources.map { _ in .failed(error) }
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
