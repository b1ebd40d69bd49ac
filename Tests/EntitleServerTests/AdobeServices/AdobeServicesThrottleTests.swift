import EntitleClients
import EntitleCore
import EntitleTesting
import Foundation
import Testing

/// The adobe-services calls are throttled per device like the other client APIs, before their caller is established:
/// a flood of forged tokens (calls that use the token as their credential, ``AdobeTokenCredentials``) is refused with
/// `too_many_requests` once past the burst, without the token's RSA check and lookup, in the protocol's own error body.
@Suite struct AdobeServicesThrottleTests {
    /// A well-formed AuthZ token with a signature of random bytes: refused only by the RSA check.
    static let forged =
        "<signatureInfo>" + Data((0..<256).map { _ in UInt8.random(in: 0...255) }).base64EncodedString() + "<signatureInfo>"
        + "<simpleAuthorizationToken><simpleTokenRequestorID>REF</simpleTokenRequestorID></simpleAuthorizationToken>"

    @Test func aFloodOfForgedTokensIsThrottledBeforeTheTokenIsChecked() async throws {
        try await RouterService.run(rateLimit: 1, burst: 3) { host in
            let client = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "flood-device")
            var statuses: [Int] = []
            var throttled: RESTClient.Answer?
            for _ in 0..<8 {
                let answer = try await client.send(
                    .POST, "/adobe-services/shortAuthorize",
                    form: [("authz_token", Self.forged), ("requestor_id", "REF"), ("session_guid", "0"), ("hashed_guid", "false")],
                    authorized: false)
                statuses.append(answer.status)
                if answer.status == 429, throttled == nil { throttled = answer }
            }
            // The burst: the forged token is checked and refused; past it, every call is throttled first.
            #expect(statuses.prefix(3).allSatisfy { $0 >= 400 && $0 < 500 && $0 != 429 }, "\(statuses)")
            #expect(statuses.dropFirst(3).allSatisfy { $0 == 429 }, "\(statuses)")
            let answer = try #require(throttled)
            #expect(answer.headers.first(name: "Content-Type") == "application/xml", "\(answer.text)")
            #expect(answer.text.contains("<code>too_many_requests</code>") && answer.text.contains("<status>429</status>"), "\(answer.text)")
            #expect(Int(answer.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)

            // The other adobe-services groups share the device's bucket: token calls answered in JSON, and device calls.
            let metadata = try await client.send(
                .POST, "/adobe-services/usermetadata", form: [("requestor", "REF"), ("authentication_token", Self.forged)], authorized: false)
            #expect(metadata.status == 429 && metadata.text.hasPrefix(#"{"status":429"#), "\(metadata.text)")
            let device = try await client.send(
                .POST, "/adobe-services/getMetadata", form: [("requestor_id", "REF"), ("device_id", "flood-device")], authorized: false)
            #expect(device.status == 429 && device.text.contains("<code>too_many_requests</code>"), "\(device.text)")

            // Another device is not held back by the flood.
            let other = RESTClient(transport: host.transport, baseURL: host.baseURL, serviceProvider: "REF", deviceID: "other-device")
            let fresh = try await other.send(
                .POST, "/adobe-services/shortAuthorize",
                form: [("authz_token", Self.forged), ("requestor_id", "REF"), ("session_guid", "0"), ("hashed_guid", "false")], authorized: false)
            #expect(fresh.status != 429, "\(fresh.text)")
        }
    }
}
