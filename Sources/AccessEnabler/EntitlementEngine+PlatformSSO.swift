import EntitleCore
import Foundation

/// Apple-style platform single sign-on: permission → platform picker → partner session → SAML relayed through
/// the platform account → `appleSSO` profile. Every way out that is not a success reports its documented status
/// (`N003`, `N004`, `N005`, `VSA404`, `VSA503`, `AAPL`) and continues with the regular picker, except a cancel; on a
/// second-screen device (tvOS cookbook) a provider choice the platform cannot complete goes on to the registration code.
extension EntitlementEngine {
    /// The requestor's MVPDs that take part in platform single sign-on.
    var platformMVPDs: [MVPDConfiguration] {
        requestor.routes.map(\.mvpd).filter(\.enablePlatformServices)
    }

    /// Whether `getAuthentication` starts with platform single sign-on.
    var platformSSOAvailable: Bool { settings.platformSSO != nil && !platformMVPDs.isEmpty }

    /// The MVPDs the platform picker may offer and the ones to feature, narrowed and ordered by `filter`
    /// (`TV_PROVIDERS`, `FEATURED_TV_PROVIDERS`; ids of non-SSO MVPDs are ignored).
    func platformCandidates(filter: [String: any Sendable]?) -> (supported: [MVPDConfiguration], featured: [MVPDConfiguration]) {
        let all = platformMVPDs
        func pick(_ ids: [String]) -> [MVPDConfiguration] {
            var seen = Set<String>()
            return ids.compactMap { id in all.first { $0.id == id } }.filter { seen.insert($0.id).inserted }
        }
        let listed = Self.identifiers(filter?[TV_PROVIDERS])
        let supported = listed.map(pick) ?? all
        let featured = pick(Self.identifiers(filter?[FEATURED_TV_PROVIDERS]) ?? []).filter { mvpd in supported.contains { $0.id == mvpd.id } }
        return (supported, featured)
    }

    /// An MVPD's id on the platform.
    static func platformID(_ mvpd: MVPDConfiguration) -> String { mvpd.platformMappingId ?? mvpd.id }

    /// A filter value: an array of ids, or one comma-separated string.
    static func identifiers(_ value: (any Sendable)?) -> [String]? {
        if let list = value as? [String] { return list }
        if let list = value as? [any Sendable] { return list.compactMap { $0 as? String } }
        if let text = value as? String { return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        return nil
    }

    /// Runs platform single sign-on for `attempt` in a child task; its end feeds the authentication machine.
    func startPlatformSSO(attempt: Int) {
        guard let platform = settings.platformSSO else {
            perform(authentication.platformSSOFinished(attempt: attempt, outcome: .fallBack))
            return
        }
        let (supported, featured) = platformCandidates(filter: authenticationFilter)
        guard !supported.isEmpty else {
            perform(authentication.platformSSOFinished(attempt: attempt, outcome: .fallBack))
            return
        }
        platformTask?.cancel()
        platformTask = Task {
            let outcome = await self.platformSignOn(platform, supported: supported, featured: featured)
            guard !Task.isCancelled else { return }
            self.perform(self.authentication.platformSSOFinished(attempt: attempt, outcome: outcome))
        }
    }

    private func platformSignOn(
        _ platform: any PlatformSingleSignOn, supported: [MVPDConfiguration],
        featured: [MVPDConfiguration]
    ) async -> AuthenticationStateMachine.PlatformOutcome {
        guard await platform.accessStatus(prompt: true) == .granted else {
            return platformFailure(PlatformSSOError(.accessDenied, details: "Access to the TV provider account was not granted."))
        }
        let channel = platformChannelIdentifier
        let request = PlatformProviderRequest(
            channelIdentifier: channel, supportedProviderIDs: supported.map(Self.platformID),
            featuredProviderIDs: featured.map(Self.platformID))
        let hub = self.hub
        let presenter = TVProviderDialogPresenter(
            present: { hub.emit(.presentTvProviderDialog($0)) },
            dismiss: { hub.emit(.dismissTvProviderDialog($0)) })
        let info: PlatformProviderInfo
        do throws(PlatformSSOError) {
            info = try await platform.selectProvider(request, presenter: presenter)
        } catch {
            return Task.isCancelled ? .cancelled : platformFailure(error)
        }
        guard !Task.isCancelled else { return .cancelled }
        guard let mvpd = supported.first(where: { Self.platformID($0) == info.providerID }) else {
            return platformFailure(PlatformSSOError(.unsupportedProvider, details: "\(info.providerID) is not offered by this requestor."))
        }
        // boardingStatus PICKER: the MVPD appears in the platform's picker, but the login is the service's own (a web
        // page, or a registration code on a second-screen device); SUPPORTED: the platform's SSO token is used.
        if mvpd.boardingStatus == BoardingStatus.picker.rawValue { return .regularFlow(mvpd: mvpd.id) }
        return await exchangePlatformAnswer(platform, mvpd: mvpd, info: info, channel: channel)
    }

    /// The partner session, the SAML relay through the platform and the profile.
    private func exchangePlatformAnswer(
        _ platform: any PlatformSingleSignOn, mvpd: MVPDConfiguration, info: PlatformProviderInfo,
        channel: String
    ) async -> AuthenticationStateMachine.PlatformOutcome {
        let provider = provider(for: mvpd.id)
        let client = client(for: provider)
        let expiration = info.expirationDate.map { Int64($0.timeIntervalSince1970 * 1000) }
        let frameworkStatus = PartnerFrameworkStatus(
            frameworkPermissionInfo: .init(accessStatus: PlatformAccessStatus.granted.rawValue),
            frameworkProviderInfo: .init(id: info.providerID, expirationDate: expiration))
        var headers = commonHeaders()
        headers["AP-Partner-Framework-Status"] = frameworkStatus.headerValue()
        var form: [(String, String)] = []
        if let domain = domainName(at: provider) { form.append(("domainName", domain)) }
        if !settings.deviceMode { form.append(("redirectUrl", redirectURL(requiresSVC: false))) }
        let sp = requestorID
        do throws(AccessEnablerError) {
            let session = try await client.send(
                APICall(method: "POST", path: ["api", "v2", sp, "sessions", "sso", "Apple"], form: form),
                headers: headers, as: SessionResponse.self)
            let profiles: ProfilesResponse
            if session.actionName == .authorize {
                profiles = try await client.send(
                    APICall(method: "GET", path: ["api", "v2", sp, "profiles", mvpd.id]), headers: headers,
                    as: ProfilesResponse.self)
            } else {
                guard let authnRequest = session.authenticationRequest else {
                    return serviceFailure("The service's partner session carries no authentication request.", chosen: mvpd.id)
                }
                let query = PlatformAttributeQuery(
                    providerID: info.providerID, channelIdentifier: channel,
                    verificationToken: authnRequest.request, attributeNames: authnRequest.attributesNames)
                let samlResponse: String
                do throws(PlatformSSOError) {
                    samlResponse = try await platform.attributeQuery(query)
                } catch {
                    return platformFailure(error, chosen: mvpd.id)
                }
                profiles = try await client.send(
                    APICall(
                        method: "POST", path: ["api", "v2", sp, "profiles", "sso", "Apple"],
                        form: [("SAMLResponse", samlResponse)]),
                    headers: headers, as: ProfilesResponse.self)
            }
            guard let profile = profiles.profiles[mvpd.id] else {
                return serviceFailure("The service returned no profile for \(mvpd.id).", chosen: mvpd.id)
            }
            store(profile: profile, mvpd: mvpd.id, provider: provider)
            return .authenticated(mvpd: mvpd.id)
        } catch {
            return serviceFailure(error.message, chosen: mvpd.id)
        }
    }

    /// The service's SAML entity id, the platform's channel identifier.
    var platformChannelIdentifier: String {
        if let configured = settings.platformChannelIdentifier { return configured }
        var base = (requestor.configurations.first?.provider ?? settings.defaultProvider).absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/sp/saml/metadata"
    }

    /// Reports the documented status of a platform error; the user's cancel ends the flow, anything else falls
    /// back to the regular picker — except on a second-screen device, which goes on to the registration code (tvOS
    /// cookbook, Apple SSO: after the provider choice, a code and polling): for the MVPD the user `chosen` in the
    /// platform's picker, or for any MVPD after "other TV provider".
    private func platformFailure(_ error: PlatformSSOError, chosen: String? = nil) -> AuthenticationStateMachine.PlatformOutcome {
        let (id, message): (String, String) =
            switch error.code {
            case .otherProvider: (AccessEnablerStatus.ID.otherProvider, "The user chose another TV provider.")
            case .unsupportedProvider: (AccessEnablerStatus.ID.unsupportedProvider, "The TV provider is not supported by this app.")
            case .cancelled: (AccessEnablerStatus.ID.pickerCancelled, "The TV provider picker was cancelled.")
            case .accessDenied: (AccessEnablerStatus.ID.platformPermission, "Access to the TV provider account was not granted.")
            case .providerUnavailable: (AccessEnablerStatus.ID.platformUnavailable, "The TV provider did not answer through the platform.")
            default: (AccessEnablerStatus.ID.platformError, "Platform single sign-on failed.")
            }
        let level = id == AccessEnablerStatus.ID.platformError ? "error" : "info"
        let extras = error.details.isEmpty ? [:] : [STATUS_DETAILS_KEY: error.details]
        emit([.status(AccessEnablerStatus(errorID: id, level: level, message: message, extras: extras))])
        // The tvOS cookbook (Apple SSO): after "other TV provider" a second-screen device goes on to the
        // registration code, where the user picks the MVPD on the activation page; when the system could not sign
        // in to the MVPD the user chose, the code is for that MVPD.
        if settings.deviceMode && error.code == .otherProvider { return .regularFlow(mvpd: nil) }
        if settings.deviceMode, let chosen, error.code != .cancelled { return .regularFlow(mvpd: chosen) }
        return error.code == .cancelled ? .cancelled : .fallBack
    }

    /// The service refused the platform's answer: `N500` with the reason, then the regular picker (on a second-screen
    /// device, the registration code for the MVPD the user chose).
    private func serviceFailure(_ details: String, chosen: String) -> AuthenticationStateMachine.PlatformOutcome {
        emit([
            .status(
                AccessEnablerStatus(
                    errorID: AccessEnablerStatus.ID.authenticationInternal, level: "error",
                    message: "The service did not accept the platform sign-on.", extras: [STATUS_DETAILS_KEY: details]))
        ])
        return settings.deviceMode ? .regularFlow(mvpd: chosen) : .fallBack
    }
}
