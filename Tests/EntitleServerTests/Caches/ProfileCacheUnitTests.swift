@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// The rules of ``ProfileCache`` that the flow tests cannot force: a load that raced an eviction is not kept, entries
/// age out, the capacity holds, and a notified cache keeps nothing while its feed is down.
@Suite struct ProfileCacheUnitTests {
    static let key = ProfileCache.DeviceKey(requestor: "REF", client: "c", device: "d")

    @Test func aLoadThatRacedAnEvictionIsNotKept() {
        let cache = ProfileCache(feed: .polled)
        let (nothing, generation) = cache.lookup(Self.key)
        #expect(nothing == nil)
        cache.evict([Self.key])  // a logout lands while the load was in flight
        cache.store(Self.key, [], generation: generation)
        #expect(cache.lookup(Self.key).profiles == nil)
        let fresh = cache.lookup(Self.key).generation
        cache.store(Self.key, [], generation: fresh)
        #expect(cache.lookup(Self.key).profiles == [])
    }

    @Test func entriesAgeOut() async throws {
        let cache = ProfileCache(feed: .polled, maxAge: .milliseconds(50))
        cache.store(Self.key, [], generation: cache.lookup(Self.key).generation)
        #expect(cache.lookup(Self.key).profiles != nil)
        try await Task.sleep(for: .milliseconds(80))
        #expect(cache.lookup(Self.key).profiles == nil)
    }

    @Test func theCapacityHolds() {
        let cache = ProfileCache(feed: .polled, capacity: 100)
        for index in 0..<1_000 {
            let key = ProfileCache.DeviceKey(requestor: "REF", client: "c", device: "d\(index)")
            cache.store(key, [], generation: cache.lookup(key).generation)
        }
        #expect(cache.count <= 100)
        #expect(cache.count > 0)
    }

    @Test func aNotifiedCacheKeepsNothingWhileItsFeedIsDown() {
        let cache = ProfileCache(feed: .notified)
        cache.store(Self.key, [], generation: cache.lookup(Self.key).generation)
        #expect(cache.count == 0)
        cache.setListening(true)
        cache.store(Self.key, [], generation: cache.lookup(Self.key).generation)
        #expect(cache.lookup(Self.key).profiles == [])
        cache.setListening(false)
        #expect(cache.lookup(Self.key).profiles == nil)
        #expect(cache.count == 0)
    }

    @Test func notificationPayloadsRoundTripAndMalformedOnesAreRefused() {
        #expect(ProfileCache.DeviceKey(payload: Self.key.payload) == Self.key)
        #expect(ProfileCache.DeviceKey(payload: "only\ntwo") == nil)
    }

    @Test func aZeroBoundDisablesCaching() {
        #expect(!ProfileCache.disabled.isEnabled)
        #expect(ProfileCache(feed: .polled).isEnabled)
    }
}

extension ProfileCacheUnitTests {
    @Test func makingRoomDropsStaleEntriesFirst() async throws {
        let cache = ProfileCache(feed: .polled, maxAge: .milliseconds(100), capacity: 10)
        func store(_ device: String) {
            let key = ProfileCache.DeviceKey(requestor: "REF", client: "c", device: device)
            cache.store(key, [], generation: cache.lookup(key).generation)
        }
        for index in 0..<9 { store("old\(index)") }
        try await Task.sleep(for: .milliseconds(150))
        store("fresh")
        store("full")  // the cache is full: the nine stale entries go, the fresh one stays
        #expect(cache.count == 2)
        #expect(cache.lookup(ProfileCache.DeviceKey(requestor: "REF", client: "c", device: "fresh")).profiles == [])
    }
}
