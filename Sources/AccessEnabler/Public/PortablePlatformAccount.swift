import EntitleCore
import Foundation

#if !(canImport(VideoSubscriberAccount) && canImport(UIKit))
/// A portable stand-in for the system's TV-provider account (Settings › TV Provider on Apple platforms), for Linux
/// and tests: it keeps the permission and the signed-in provider account, shows its picker as a
/// ``PortableTVProviderDialog`` when nobody is signed in, and relays the service's SAML AuthnRequest to the
/// provider's platform sign-on endpoint (`POST …/platform/sso` of the DemoMVPD) with the stored credentials.
public final class PortablePlatformAccount: PlatformSingleSignOn {
    /// The account's sign-in.
    public struct SignIn: Sendable, Equatable {
        /// The platform provider id.
        public var providerID: String
        /// The subscriber's user name at the provider.
        public var username: String
        /// The subscriber's password (kept in memory only).
        public var password: String
        /// When the sign-in expires.
        public var expirationDate: Date
    }

    private struct State {
        var access: PlatformAccessStatus
        var promptAnswer: PlatformAccessStatus
        var signIn: SignIn?
    }

    /// The providers the platform knows, shown in its picker.
    public let catalog: [PlatformAccountProvider]
    private let transport: any HTTPTransport
    private let signInLifetime: TimeInterval
    private let clock: any AccessEnablerClock
    private let state: Locked<State>

    /// Creates an account that knows `catalog`; `accessStatus` is the app's permission now and `promptAnswer` what
    /// the user answers when asked.
    public init(
        catalog: [PlatformAccountProvider], accessStatus: PlatformAccessStatus = .notDetermined,
        promptAnswer: PlatformAccessStatus = .granted, transport: any HTTPTransport = URLSessionTransport(),
        signInLifetime: TimeInterval = 30 * 86_400, clock: any AccessEnablerClock = SystemClock()
    ) {
        self.catalog = catalog
        self.transport = transport
        self.signInLifetime = signInLifetime
        self.clock = clock
        self.state = Locked(State(access: accessStatus, promptAnswer: promptAnswer, signIn: nil))
    }

    /// Signs the account in to a provider, as in the system settings.
    public func signIn(providerID: String, username: String, password: String) {
        let signIn = SignIn(
            providerID: providerID, username: username, password: password,
            expirationDate: clock.now().addingTimeInterval(signInLifetime))
        state.withLock { $0.signIn = signIn }
    }

    /// Signs the account out, as in the system settings.
    public func signOut() { state.withLock { $0.signIn = nil } }

    /// The provider the account is signed in to.
    public var signedInProviderID: String? { state.withLock { $0.signIn?.providerID } }

    /// Changes the app's permission, as in the system's privacy settings.
    public func setAccessStatus(_ status: PlatformAccessStatus) { state.withLock { $0.access = status } }

    /// The permission; when undetermined and `prompt` is true the user is asked and answers `promptAnswer`.
    public func accessStatus(prompt: Bool) async -> PlatformAccessStatus {
        state.withLock { state in
            if state.access == .notDetermined && prompt { state.access = state.promptAnswer }
            return state.access
        }
    }

    /// The signed-in provider when the app supports it; otherwise the picker: the user signs in to a provider,
    /// picks "other TV provider" or cancels.
    public func selectProvider(
        _ request: PlatformProviderRequest,
        presenter: TVProviderDialogPresenter
    ) async throws(PlatformSSOError) -> PlatformProviderInfo {
        if let signIn = state.withLock({ $0.signIn }), signIn.expirationDate > clock.now() {
            guard request.supportedProviderIDs.contains(signIn.providerID) else {
                throw PlatformSSOError(.unsupportedProvider, details: "The account is signed in to \(signIn.providerID).")
            }
            return PlatformProviderInfo(providerID: signIn.providerID, expirationDate: signIn.expirationDate)
        }
        let dialog = PortableTVProviderDialog(
            providers: catalog, supportedProviderIDs: request.supportedProviderIDs,
            featuredProviderIDs: request.featuredProviderIDs)
        presenter.present(dialog)
        let choice = await dialog.choice()
        presenter.dismiss(dialog)
        switch choice {
        case .otherProvider:
            throw PlatformSSOError(.otherProvider)
        case .cancelled:
            throw PlatformSSOError(.cancelled)
        case .signIn(let providerID, let username, let password):
            guard catalog.contains(where: { $0.id == providerID }), request.supportedProviderIDs.contains(providerID) else {
                throw PlatformSSOError(.unsupportedProvider, details: "\(providerID) is not supported by this app.")
            }
            signIn(providerID: providerID, username: username, password: password)
            return PlatformProviderInfo(providerID: providerID, expirationDate: state.withLock { $0.signIn?.expirationDate })
        }
    }

    /// Posts the AuthnRequest with the stored credentials to the provider's platform sign-on endpoint.
    public func attributeQuery(_ query: PlatformAttributeQuery) async throws(PlatformSSOError) -> String {
        guard let signIn = state.withLock({ $0.signIn }), signIn.providerID == query.providerID else {
            throw PlatformSSOError(.other, details: "The account is not signed in to \(query.providerID).")
        }
        guard let provider = catalog.first(where: { $0.id == query.providerID }) else {
            throw PlatformSSOError(.unsupportedProvider, details: "\(query.providerID) is unknown to the platform.")
        }
        let form = [("verificationToken", query.verificationToken), ("username", signIn.username), ("password", signIn.password)]
        let request = HTTPRequest(
            method: "POST", url: provider.signOnURL,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: Data(FormURLEncoding.encode(form).utf8))
        let response: HTTPResponse
        do {
            response = try await transport.send(request)
        } catch {
            throw PlatformSSOError(.providerUnavailable, details: "\(provider.displayName) could not be reached.")
        }
        struct Answer: Decodable { var samlAttributeQueryResponse: String }
        struct Refusal: Decodable { var error: String; var message: String }
        if response.status >= 500 {
            throw PlatformSSOError(.providerUnavailable, details: "\(provider.displayName) answered HTTP \(response.status).")
        }
        guard response.status == 200, let answer = try? JSONDecoder().decode(Answer.self, from: response.body) else {
            let refusal = try? JSONDecoder().decode(Refusal.self, from: response.body)
            throw PlatformSSOError(
                .other, details: refusal.map { "\($0.error): \($0.message)" } ?? "\(provider.displayName) answered HTTP \(response.status).")
        }
        return answer.samlAttributeQueryResponse
    }
}
#endif
