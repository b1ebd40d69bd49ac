import EntitleCore
import Foundation

extension AccessEnabler {
    private func call<T: Sendable>(_ make: (@escaping EngineCommand.Reply<T>) -> EngineCommand) async throws(AccessEnablerError) -> T {
        let result: Result<T, AccessEnablerError> = await withCheckedContinuation { continuation in
            send(make { continuation.resume(returning: $0) })
        }
        return try result.get()
    }

    private func cancellableFlow(_ make: (@escaping EngineCommand.Reply<String>) -> EngineCommand) async throws(AccessEnablerError) -> String {
        let result: Result<String, AccessEnablerError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                send(make { continuation.resume(returning: $0) })
            }
        } onCancel: {
            send(.selectProvider(nil, reply: nil))
        }
        return try result.get()
    }

    /// `setRequestor` as a call: the merged MVPD list, or the configuration error (with its `CFG…`/`R…` status id).
    @discardableResult
    public func configure(requestorID: String, serviceProviders: [String] = []) async throws(AccessEnablerError) -> [MVPD] {
        try await call { .setRequestor(requestorID, providers: Self.providerURLs(serviceProviders), reply: $0) }
    }

    /// The configured MVPDs (after `setRequestor`).
    public func providers() async throws(AccessEnablerError) -> [MVPD] {
        try await call { .providers(reply: $0) }
    }

    /// `checkAuthentication` as a call: the MVPD the user is authenticated with, or nil.
    public func authenticatedMVPD() async -> String? {
        try? await call { .checkAuthentication(reply: $0) }
    }

    /// Authenticates with `mvpd` (as `setSelectedProvider`) and returns when the flow ends. The login page still goes
    /// through `navigate(toUrl:)` / ``events``; the flow ends when the app calls `handleExternalURL`. Cancelling the
    /// task cancels the flow.
    @discardableResult
    public func authenticate(mvpd: String) async throws(AccessEnablerError) -> String {
        try await cancellableFlow { .selectProvider(mvpd, reply: $0) }
    }

    /// `getAuthentication` as a call: the authenticated MVPD. Runs platform single sign-on first when the device has a
    /// TV-provider account and the requestor SSO MVPDs (`filter`: `TV_PROVIDERS`, `FEATURED_TV_PROVIDERS`); otherwise,
    /// or when it falls back, the call waits for the app's `setSelectedProvider` after `displayProviderDialog`.
    @discardableResult
    public func authenticate(
        forceAuthn: Bool = false, withData data: [String: any Sendable]? = nil,
        filter: [String: any Sendable]? = nil
    ) async throws(AccessEnablerError) -> String {
        try await cancellableFlow { .getAuthentication(force: forceAuthn, data: data, filter: filter, reply: $0) }
    }

    /// Second-screen login (second-screen mode): creates a session (for `mvpd`, or letting the user pick on the
    /// activation page), hands the registration code to `onCode` (it is also sent as the `REGCODE` status), polls
    /// until the login completes or the code expires, and returns the MVPD. `onCode` has been called when this returns,
    /// however fast the login completed. Cancelling the task stops the polling.
    @discardableResult
    public func authenticateWithSecondScreen(
        mvpd: String? = nil,
        onCode: (@Sendable (RegistrationCode) -> Void)? = nil
    ) async throws(AccessEnablerError) -> String {
        var token: ObservationToken?
        if let onCode {
            token = observe { event in
                guard case .status(let status) = event, status.errorID == AccessEnablerStatus.ID.registrationCode else { return }
                let notAfter = status.extras[STATUS_EXPIRES_KEY].flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
                onCode(
                    RegistrationCode(
                        code: status.extras[STATUS_REGISTRATION_CODE_KEY] ?? status.message,
                        activationURL: status.extras[STATUS_ACTIVATION_URL_KEY] ?? "", notAfter: notAfter))
            }
        }
        let result: Result<String, AccessEnablerError>
        do { result = .success(try await cancellableFlow { .startSecondScreen(mvpd: mvpd, reply: $0) }) } catch { result = .failure(error) }
        if let token {
            // The code's event may still wait on the callback executor: hand it to `onCode` before stopping observing.
            await hub.delivered()
            token.cancel()
        }
        return try result.get()
    }

    /// `checkAuthorization` as a call: the short media token for `resource`, or the failure (`notAuthenticated`,
    /// `notAuthorized` with the MVPD's message in `details`, …).
    public func authorize(_ resource: String) async throws(AccessEnablerError) -> String {
        try await call { .authorize(resource, mode: .check, data: nil, reply: $0) }
    }

    /// `checkPreauthorizedResources(_:cache:)` as a call: the authorized subset, in request order.
    public func preauthorize(_ resources: [String], cache: Bool = true) async throws(AccessEnablerError) -> [String] {
        try await call { .checkPreauthorized(resources, cache: cache, reply: $0) }
    }

    /// `getMetadata` as a call.
    public func metadata(_ keys: [String: any Sendable]) async throws(AccessEnablerError) -> MetadataResult {
        try await call { .getMetadata(keys, reply: $0) }
    }

    /// A user metadata value (`zip`, `householdID`, `maxRating`, `userID`, `channelID`, …).
    public func userMetadata(_ name: String) async throws(AccessEnablerError) -> MetadataResult {
        try await metadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: name])
    }

    /// `getSelectedProvider` as a call.
    public func selectedMVPD() async throws(AccessEnablerError) -> MVPD? {
        try await call { .getSelectedProvider(reply: $0) }
    }

    /// `logout` as a call: returns when the logout is complete (after `handleExternalURL` when a page was opened).
    public func signOut() async throws(AccessEnablerError) {
        try await call { .logout(reply: $0) }
    }
}
