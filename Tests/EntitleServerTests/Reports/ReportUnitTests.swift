import EntitleCore
@testable import EntitleDomain
import EntitleHTTP
import EntitleModel
@testable import EntitleStorage
import Foundation
import Testing

/// The pieces of the reports without a service: platforms, minutes, request parsing and the CSV form.
@Suite struct ReportUnitTests {
    @Test func platformsAreASmallFixedSet() {
        let cases: [(DeviceInfo?, String)] = [
            (nil, "unknown"),
            (DeviceInfo(primaryHardwareType: "MobilePhone", osName: "iOS"), "iOS"),
            (DeviceInfo(primaryHardwareType: "Tablet", osName: "iPadOS"), "iOS"),
            (DeviceInfo(primaryHardwareType: "TV", osName: "tvOS"), "tvOS"),
            (DeviceInfo(primaryHardwareType: "MobilePhone", osName: "Android"), "Android"),
            (DeviceInfo(primaryHardwareType: "TV", osName: "Android"), "AndroidTV"),
            (DeviceInfo(primaryHardwareType: "SetTopBox", model: "AFTMM", manufacturer: "Amazon", osName: "Android"), "FireTV"),
            (DeviceInfo(primaryHardwareType: "SetTopBox", osName: "Roku OS"), "Roku"),
            (DeviceInfo(osName: "Windows", browserName: "Chrome"), "web"),
            (DeviceInfo(primaryHardwareType: "SetTopBox", osName: "Linux"), "other"),
            (DeviceInfo(osName: String(repeating: "z", count: 500)), "other"),
        ]
        for (info, platform) in cases {
            #expect(ReportPlatform.of(info) == platform, "\(String(describing: info))")
            #expect(ReportPlatform.all.contains(platform))
        }
    }

    @Test func labelValuesAreBounded() {
        let labels = BoundedLabels(limit: 3)
        #expect(["a", "b", "c"].map { labels.value("mvpd", $0) } == ["a", "b", "c"])
        #expect(labels.value("mvpd", "d") == "other")
        #expect(labels.value("mvpd", "b") == "b")
        #expect(labels.value("requestor", "d") == "d")
    }

    @Test func eventsAreCountedPerMinuteAndKey() {
        let accumulator = ReportAccumulator()
        let key = ReportKey(requestor: "REF", mvpd: "DemoCable", platform: "iOS", app: "app")
        accumulator.count(key, at: 120_000) { $0.authzAttempts += 1 }
        accumulator.count(key, at: 179_999) { $0.authzAttempts += 1 }
        accumulator.count(key, at: 180_000) { $0.mediaTokens += 1 }
        let drained = accumulator.drain()
        #expect(drained.count == 2)
        #expect(drained[.init(start: 120_000, key: key)]?.authzAttempts == 2)
        #expect(drained[.init(start: 180_000, key: key)]?.mediaTokens == 1)
        #expect(accumulator.isEmpty)
        accumulator.count(key, at: 180_000) { $0.mediaTokens += 1 }
        accumulator.restore(drained)
        #expect(accumulator.drain()[.init(start: 180_000, key: key)]?.mediaTokens == 2)
    }

    @Test func requestsHaveDefaultsAndRefuseBadValues() throws {
        let now: Int64 = 1_800_000_000_000
        let plain = try ReportRequest(dimensions: [], parameters: [:], accept: nil, now: now)
        #expect(plain.query.end == now && plain.query.start == now - 86_400_000 && plain.query.granularity == .hour && !plain.csv)
        let asked = try ReportRequest(
            dimensions: ["requestor", "platform"],
            parameters: ["start": "2026-11-26T08:00:30Z", "end": "2026-11-26T09:00:00.500Z", "granularity": "minute", "mvpd": "DemoCable"],
            accept: "text/csv", now: now)
        #expect(asked.query.dimensions == [.requestor, .platform] && asked.query.filters == [.mvpd: "DemoCable"] && asked.csv)
        #expect(asked.query.start % 60_000 == 0 && asked.query.end % 1000 == 500)
        #expect(try ReportRequest(dimensions: [], parameters: ["start": "2026-11-26"], accept: nil, now: now).query.start > 0)
        #expect(throws: ReportRequestError.self) { try ReportRequest(dimensions: ["Platform"], parameters: [:], accept: nil, now: now) }
        #expect(throws: ReportRequestError.self) {
            try ReportRequest(dimensions: [], parameters: ["format": "json", "start": "0"], accept: "text/csv", now: now)
        }
    }

    @Test func csvIsQuotedAsRFC4180Says() {
        #expect(ReportDocument.csvField("plain") == "plain")
        #expect(ReportDocument.csvField("a,b") == "\"a,b\"")
        #expect(ReportDocument.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(ReportDocument.csvField("two\nlines") == "\"two\nlines\"")
        #expect(ReportDocument.csvField("=HYPERLINK(1)") == "'=HYPERLINK(1)")
        var counts = ReportCounts()
        counts.mvpdCalls = 2
        counts.mvpdLatencySumMs = 25
        counts.mvpdLatencyMaxMs = 20
        let document = ReportDocument(
            query: ReportQuery(start: 0, end: 3_600_000, granularity: .total, dimensions: [.mvpd]),
            rows: [ReportRow(time: nil, dimensions: [.mvpd: "Cable, Inc"], counts: counts)])
        let lines = document.csv.components(separatedBy: "\r\n")
        #expect(lines[0].hasPrefix("mvpd,authnAttempts,"))
        #expect(lines[0].hasSuffix(",mvpdLatencyMaxMs,uniqueAccounts,uniqueVisitors"))
        #expect(lines[1] == "\"Cable, Inc\",0,0,0,0,0,0,0,0,0,0,0,2,12.5,20,0,0")
        #expect(document.fileName == "entitle-report-mvpd-total-19700101T000000Z.csv")
    }
}
