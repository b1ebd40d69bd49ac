import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// What the unit tests of domain services share: MVPD records and a catalog in memory (no database), the start of
/// their ``ManualClock``.
enum InMemoryStoreFixtures {
    /// Where the tests' clocks start.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    /// ``start`` in ms.
    static let startMilliseconds = Int64(start.timeIntervalSince1970 * 1000)

    /// An MVPD: SAML unless `tempPassMinutes` is given; a Promotional TempPass when `resourceLimit` is given too.
    static func mvpd(_ id: String, tempPassMinutes: Int64? = nil, resourceLimit: Int64? = nil) -> MVPDRecord {
        MVPDRecord(
            id: id, displayName: "Name " + id, logoUrl: "http://logo/" + id, kind: tempPassMinutes == nil ? .saml : .tempPass,
            entityId: tempPassMinutes == nil ? "urn:" + id : nil, ssoUrl: nil, sloUrl: nil, certificates: [], authorizationUrl: nil,
            authorizationKey: nil, requiresSafariViewController: false, enablePlatformServices: false, boardingStatus: nil,
            platformMappingId: nil, displayInPlatformPicker: false, temppassMinutes: tempPassMinutes, profileTtlSeconds: 3600,
            encryptedAttributes: [], temppassResourceLimit: resourceLimit)
    }

    /// A catalog where requestor `REF` integrates `mvpds`.
    static func catalog(_ mvpds: MVPDRecord...) -> InMemoryCatalogStore {
        let catalog = InMemoryCatalogStore()
        catalog.add(RequestorRecord(id: "REF", name: "Reference", domains: [], maxResources: 5, metadataCertificatePem: nil))
        for mvpd in mvpds { catalog.add(mvpd, integratedWith: ["REF"]) }
        return catalog
    }
}

extension InMemoryStoreFixtures {
    /// Expects `body` to throw `expected`, compared by code and status.
    static func expect(
        _ expected: EnhancedError, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async {
        let error = await #expect(throws: EnhancedError.self, sourceLocation: sourceLocation) { try await body() }
        #expect(error?.code == expected.code, sourceLocation: sourceLocation)
        #expect(error?.status == expected.status, sourceLocation: sourceLocation)
    }
}
