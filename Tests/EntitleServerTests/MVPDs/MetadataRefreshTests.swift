import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// The service reads MVPD metadata given by URL again on its own schedule (`entitle serve --metadata-refresh-hours`):
/// only once the interval has passed, one reader per due MVPD however many ask at once (claimed in the database), what changed applied and
/// recorded, a failing URL tried again an interval later while the stored metadata stays in use.
@Suite struct MetadataRefreshTests {
    /// DemoCable's metadata given by its URL (the DemoMVPD's own), then its stored copy made stale.
    static func staleDemoCable(_ local: LocalService) async throws -> (entity: String?, url: String) {
        let url = local.baseURL + "/demo-mvpd/DemoCable/saml/metadata"
        var update = MVPDUpdate()
        update.samlMetadataURL = url
        try await local.service.mvpds.update(id: "DemoCable", update, actor: "test")
        var stale = try #require(try await local.service.repository.catalogStore.mvpd(id: "DemoCable"))
        let entity = stale.entityId
        stale.entityId = "https://stale.example/idp"
        try await local.service.repository.catalogStore.upsertMVPD(stale)
        return (entity, url)
    }

    @Test func dueMetadataIsReadOnceAndWhatChangedIsAppliedAndRecorded() async throws {
        try await LocalService.run { local in
            let (entity, _) = try await Self.staleDemoCable(local)
            let notYet = try await local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            #expect(notYet.changed.isEmpty && notYet.failures.isEmpty, "read a moment ago: not due")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoCable")?.entityId == "https://stale.example/idp")

            local.clock.advance(by: 3601)
            let refreshed = try await local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            #expect(refreshed.changed == ["DemoCable"] && refreshed.failures.isEmpty, "\(refreshed)")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoCable")?.entityId == entity)
            let entry = try #require(try await local.service.repository.changeLogStore.changes(since: 0).last)
            #expect(entry.actor == MVPDOperations.metadataRefreshActor && entry.action == "mvpd.update" && entry.target == "DemoCable")

            let again = try await local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            #expect(again.changed.isEmpty && again.failures.isEmpty, "just read: not due again")
        }
    }

    @Test func aFailingURLIsTriedAgainAnIntervalLaterAndTheStoredMetadataStays() async throws {
        try await LocalService.run { local in
            let stored = try #require(try await local.service.repository.catalogStore.mvpd(id: "DemoFiber"))
            try await local.service.repository.catalogAdminStore.setMetadataSource(mvpd: "DemoFiber", url: local.baseURL + "/nope.xml", at: 0)
            // Asked three times at once (as several instances would): one claims the source and reads it. Without the
            // claim each would fetch the failing URL and report it.
            async let first = local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            async let second = local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            async let third = local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            let results = try await [first, second, third]
            #expect(results.map(\.failures.count).reduce(0, +) == 1, "\(results)")
            let failure = results.compactMap { $0.failures["DemoFiber"] }.first
            // The claim itself: of two instances that saw the same read time, only the first moves it.
            let onboarding = local.service.repository.catalogAdminStore
            let seen = try #require(try await onboarding.metadataSourcesDue(at: .max).first { $0.mvpd == "DemoFiber" }).refreshedAt
            #expect(try await onboarding.claimMetadataRefresh(mvpd: "DemoFiber", seen: seen, now: seen + 1))
            #expect(try await !onboarding.claimMetadataRefresh(mvpd: "DemoFiber", seen: seen, now: seen + 2))
            try await onboarding.setMetadataSource(mvpd: "DemoFiber", url: local.baseURL + "/nope.xml", at: seen)
            #expect(failure?.contains("404") == true, "\(String(describing: failure))")
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoFiber") == stored)
            let soon = try await local.service.mvpds.refreshDueMetadata(interval: .seconds(3600))
            #expect(soon.failures.isEmpty, "not tried again before the interval")
            local.clock.advance(by: 3601)
            #expect(try await local.service.mvpds.refreshDueMetadata(interval: .seconds(3600)).failures.keys.sorted() == ["DemoFiber"])
        }
    }

    @Test func theRunningServiceRefreshesOnItsOwnSchedule() async throws {
        try await LocalService.run(metadataRefresh: (interval: .seconds(3600), check: .milliseconds(100))) { local in
            let (entity, _) = try await Self.staleDemoCable(local)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoCable")?.entityId == "https://stale.example/idp", "not due yet")
            local.clock.advance(by: 3601)
            let deadline = ContinuousClock.now + .seconds(20)
            while try await local.service.repository.catalogStore.mvpd(id: "DemoCable")?.entityId != entity, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(try await local.service.repository.catalogStore.mvpd(id: "DemoCable")?.entityId == entity, "read again by the service itself")
        }
    }
}
