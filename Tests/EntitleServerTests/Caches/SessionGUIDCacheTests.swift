import Testing

@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage

/// Media tokens' session GUIDs come from memory after the first token of a sign-in, with the same value as derived.
@Suite struct SessionGUIDCacheTests {
    static func profile(device: String = "d", notBefore: Int64 = 1_700_000_000_000) -> ProfileRecord {
        var profile = ProfileChecksTests.profile(mvpd: "DemoCable", notBefore: notBefore, seconds: 3600)
        profile.deviceId = device
        return profile
    }

    @Test func theGUIDIsTheFirst32HexDigitsOfTheSignInsSHA256() {
        // python3 -c "import hashlib; print(hashlib.sha256(b'REF|c|d|DemoCable|1700000000000').hexdigest()[:32])"
        let cache = SessionGUIDCache()
        #expect(cache.guid(for: Self.profile()) == "3ac520f779af5558bf6cde4944ac3150")
        #expect(cache.guid(for: Self.profile()) == "3ac520f779af5558bf6cde4944ac3150", "kept: the same value the second time")
        #expect(cache.count == 1)
    }

    @Test func anotherSignInHasAnotherGUID() {
        let cache = SessionGUIDCache()
        let first = cache.guid(for: Self.profile())
        #expect(cache.guid(for: Self.profile(notBefore: 1_700_000_000_001)) != first, "a new sign-in on the same device")
        #expect(cache.guid(for: Self.profile(device: "e")) != first, "another device")
        #expect(cache.count == 3)
    }

    @Test func pastItsCapacityEverythingIsDroppedAndDerivedAgain() {
        let cache = SessionGUIDCache(capacity: 2)
        let first = cache.guid(for: Self.profile(device: "a"))
        _ = cache.guid(for: Self.profile(device: "b"))
        _ = cache.guid(for: Self.profile(device: "c"))
        #expect(cache.count == 1)
        #expect(cache.guid(for: Self.profile(device: "a")) == first)
        #expect(cache.count == 2)
    }
}
