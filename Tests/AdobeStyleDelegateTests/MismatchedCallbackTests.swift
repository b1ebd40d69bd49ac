import AccessEnabler
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// A delegate whose optional `navigate(toUrl:)` has a slightly different signature (`String`, not `String!`): Swift
/// does not take it as the protocol's callback, so the SDK's default runs — and reports status `CB404` naming the
/// callback instead of staying silent.
final class NearMissDelegate: NSObject, EntitlementDelegate, EntitlementStatus {
    private let lock = NSLock()
    private var lines: [String] = []
    var log: [String] { lock.withLock { lines } }
    private func add(_ line: String) { lock.withLock { lines.append(line) } }

    func setRequestorComplete(_ status: Int32) { add("setRequestorComplete(\(status))") }
    func setAuthenticationStatus(_ status: Int32, errorCode code: String!) { add("setAuthenticationStatus(\(status))") }
    func displayProviderDialog(_ mvpds: [Any]!) { add("displayProviderDialog") }
    func navigate(toUrl url: String) { add("navigate(String)") }  // not the requirement: that takes String!
    func setToken(_ token: String!, forResource resource: String!) {}
    func tokenRequestFailed(_ resource: String!, errorCode code: String!, errorDescription description: String!) {}
    func preauthorizedResources(_ resources: [Any]!) {}
    func selectedProvider(_ mvpd: MVPD!) {}
    func setMetadataStatus(_ metadata: Any!, encrypted: Bool, forKey key: Int32, andArguments arguments: [AnyHashable: Any]!) {}
    func sendTrackingData(_ data: [Any]!, forEventType event: Int32) {}
    func status(_ statusDictionary: [AnyHashable: Any]!) {
        add(
            "status(\(statusDictionary["errorId"] as? String ?? "?"),\(statusDictionary["callback"] as? String ?? ""),\(statusDictionary["level"] as? String ?? ""))"
        )
    }
}

@Suite struct MismatchedCallbackTests {
    @Test func aNearMissOptionalCallbackIsReportedAsCB404() async throws {
        try await LocalService.run { service in
            let delegate = NearMissDelegate()
            let enabler = AccessEnabler(
                softwareStatement: service.softwareStatement,
                configuration: AccessEnabler.Configuration(tokenStore: InMemoryTokenStore()))
            enabler.delegate = delegate
            enabler.statusDelegate = delegate
            // Subscribed before the calls: a stream made inside the task could miss events sent before it runs.
            let events = enabler.events
            let reports = Task { () -> AccessEnablerStatus? in
                for await event in events {
                    if case .status(let status) = event, status.errorID == AccessEnablerStatus.ID.callbackNotImplemented { return status }
                }
                return nil
            }
            enabler.setRequestor("REF", serviceProviders: [service.baseURL])
            enabler.setSelectedProvider("DemoCable")
            let report = try #require(await reports.value)
            #expect(report.extras["callback"] == "navigate(toUrl:)")
            #expect(report.level == "error")
            #expect(delegate.log.contains("status(CB404,navigate(toUrl:),error)"))
            #expect(!delegate.log.contains("navigate(String)"))
        }
    }
}
