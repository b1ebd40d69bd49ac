import AccessEnabler
import EntitleClients
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Synchronization
import Testing

/// A browser the SDK opens itself (SFSafariViewController's role): it signs carol in at the DemoMVPD with a real HTTP
/// client and, like the app's URL-scheme handler, hands the final redirect to `handleExternalURL`.
final class SigningInSafariView: SafariViewPresenter {
    let service: LocalService
    let opened = Mutex<[String]>([])
    let closed = Mutex(0)
    let handler = Mutex<(@Sendable (String) -> Void)?>(nil)

    init(service: LocalService) { self.service = service }

    func open(_ url: URL) async {
        opened.withLock { $0.append(url.absoluteString) }
        guard
            let outcome = try? await DemoSignIn.signIn(
                browser: service.browser(), authenticationURL: url.absoluteString,
                username: "carol", password: "carol-pass"),
            case .external(let redirect) = outcome
        else { return }
        handler.withLock { $0 }?(redirect)
    }

    func close() async { closed.withLock { $0 += 1 } }
}

/// MVPDs that require SFSafariViewController (Demo Fiber): the SDK opens its own browser unless the app takes it
/// over with `handleSVC`.
@Suite(.timeLimit(.minutes(10))) struct SDKSafariViewTests {
    static func app(_ service: LocalService, presenter: SigningInSafariView) -> AccessEnabler {
        let configuration = AccessEnabler.Configuration(
            tokenStore: InMemoryTokenStore(), callbackExecutor: DispatchQueueExecutor(queue: DispatchQueue(label: "svc-app")),
            secondScreen: false, redirectURL: "adobepass://ios.app", deviceID: "svc-" + UUID().uuidString,
            platformSSO: nil, safariPresenter: presenter)
        let enabler = AccessEnabler(
            softwareStatement: service.softwareStatement, serviceBaseURL: URL(string: service.baseURL)!,
            configuration: configuration)
        presenter.handler.withLock { $0 = { [weak enabler] url in enabler?.handleExternalURL(url) } }
        return enabler
    }

    @Test func theSDKOpensItsOwnBrowserForDemoFiberAndClosesItAfterTheLogin() async throws {
        try await LocalService.run { service in
            let presenter = SigningInSafariView(service: service)
            let enabler = Self.app(service, presenter: presenter)
            let navigations = Mutex<[String]>([])
            let token = enabler.observe { event in
                if case .navigate(let url, _) = event { navigations.withLock { $0.append(url) } }
            }
            defer { token.cancel() }
            try await enabler.configure(requestorID: "REF")
            #expect(try await enabler.authenticate(mvpd: "DemoFiber") == "DemoFiber")
            #expect(presenter.opened.withLock { $0 }.count == 1)
            #expect(presenter.opened.withLock { $0 }.first?.hasPrefix(service.baseURL + "/api/v2/authenticate/REF/") == true)
            #expect(presenter.closed.withLock { $0 } >= 1)
            #expect(navigations.withLock { $0 }.isEmpty)
            #expect(try await enabler.authorize("news").isEmpty == false)
        }
    }

    @Test func handleSVCHandsTheLoginToTheAppAndOtherMVPDsUseTheWebView() async throws {
        try await LocalService.run { service in
            let presenter = SigningInSafariView(service: service)
            let enabler = Self.app(service, presenter: presenter)
            let navigations = Mutex<[(String, Bool)]>([])
            let token = enabler.observe { event in
                if case .navigate(let url, let useSVC) = event { navigations.withLock { $0.append((url, useSVC)) } }
            }
            defer { token.cancel() }
            try await enabler.configure(requestorID: "REF")
            enabler.setOptions([OPTION_HANDLE_SVC: true])
            for (mvpd, count) in [("DemoFiber", 1), ("DemoCable", 2)] {
                enabler.setSelectedProvider(mvpd)
                let deadline = Date().addingTimeInterval(60)  // generous: the full suite runs a hundred services on two cores
                while navigations.withLock({ $0.count }) < count && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
            }
            let seen = navigations.withLock { $0 }
            #expect(seen.map(\.1) == [true, false])
            #expect(presenter.opened.withLock { $0 }.isEmpty)
        }
    }
}
