import EntitleCore
import Foundation

/// The service's part of platform single sign-on: the partner session (`POST /api/v2/{sp}/sessions/sso/Apple`), the
/// SAML relay through the platform, the profile (`POST /api/v2/{sp}/profiles/sso/Apple`), and the documented status
/// of each way it can fail.
extension PlatformSSOCoordinator {
    /// The partner session, the SAML relay through the platform and the profile.
    func exchange(
        _ platform: any PlatformSingleSignOn, mvpd: MVPDConfiguration, info: PlatformProviderInfo, channel: String,
        in engine: isolated EntitlementEngine
    ) async -> AuthenticationStateMachine.PlatformOutcome {
        let provider = engine.provider(for: mvpd.id)
        let client = engine.client(for: provider)
        let expiration = info.expirationDate.map { Int64($0.timeIntervalSince1970 * 1000) }
        let frameworkStatus = PartnerFrameworkStatus(
            frameworkPermissionInfo: .init(accessStatus: PlatformAccessStatus.granted.rawValue),
            frameworkProviderInfo: .init(id: info.providerID, expirationDate: expiration))
        var headers = engine.commonHeaders()
        headers["AP-Partner-Framework-Status"] = frameworkStatus.headerValue()
        var form: [(String, String)] = []
        if let domain = engine.domainName(at: provider) { form.append(("domainName", domain)) }
        if !engine.settings.deviceMode { form.append(("redirectUrl", engine.redirectURL(requiresSVC: false))) }
        let sp = engine.requestorID
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
                    return serviceFailure("The service's partner session carries no authentication request.", chosen: mvpd.id, in: engine)
                }
                let query = PlatformAttributeQuery(
                    providerID: info.providerID, channelIdentifier: channel,
                    verificationToken: authnRequest.request, attributeNames: authnRequest.attributesNames)
                let samlResponse: String
                do throws(PlatformSSOError) {
                    samlResponse = try await platform.attributeQuery(query)
                } catch {
                    return failure(error, chosen: mvpd.id, in: engine)
                }
                profiles = try await client.send(
                    APICall(
                        method: "POST", path: ["api", "v2", sp, "profiles", "sso", "Apple"],
                        form: [("SAMLResponse", samlResponse)]),
                    headers: headers, as: ProfilesResponse.self)
            }
            guard let profile = profiles.profiles[mvpd.id] else {
                return serviceFailure("The service returned no profile for \(mvpd.id).", chosen: mvpd.id, in: engine)
            }
            engine.store(profile: profile, mvpd: mvpd.id, provider: provider)
            return .authenticated(mvpd: mvpd.id)
        } catch {
            return serviceFailure(error.message, chosen: mvpd.id, in: engine)
        }
    }

    /// Reports the documented status of a platform error; the user's cancel ends the flow, anything else falls
    /// back to the regular picker — except on a second-screen device, which goes on to the registration code (tvOS
    /// cookbook, Apple SSO: after the provider choice, a code and polling): for the MVPD the user `chosen` in the
    /// platform's picker, or for any MVPD after "other TV provider".
    func failure(
        _ error: PlatformSSOError, chosen: String? = nil, in engine: isolated EntitlementEngine
    ) -> AuthenticationStateMachine.PlatformOutcome {
        let (id, message): (String, String) =
            switch error.code {
            case .otherProvider: (AccessEnablerStatus.ID.otherProvider, "The user chose another TV provider.")
            case .unsupportedProvider: (AccessEnablerStatus.ID.unsupportedProvider, "The TV provider is not supported by this app.")
            case .cancelled: (AccessEnablerStatus.ID.pickerCancelled, "The TV provider picker was cancelled.")
            case .accessDenied: (AccessEnablerStatus.ID.platformPermission, "Access to the TV provider account was not granted.")
            case .providerUnavailable: (AccessEnablerStatus.ID.platformUnavailable, "The TV provider did not answer through the platform.")
            default: (AccessEnablerStatus.ID.platformError, "Platform single sign-on failed.")
            }
        let level: AccessEnablerStatus.Level = id == AccessEnablerStatus.ID.platformError ? .error : .info
        let extras = error.details.isEmpty ? [:] : [STATUS_DETAILS_KEY: error.details]
        engine.emit([.status(AccessEnablerStatus(errorID: id, level: level, message: message, extras: extras))])
        // The tvOS cookbook (Apple SSO): after "other TV provider" a second-screen device goes on to the
        // registration code, where the user picks the MVPD on the activation page; when the system could not sign
        // in to the MVPD the user chose, the code is for that MVPD.
        let deviceMode = engine.settings.deviceMode
        if deviceMode && error.code == .otherProvider { return .regularFlow(mvpd: nil) }
        if deviceMode, let chosen, error.code != .cancelled { return .regularFlow(mvpd: chosen) }
        return error.code == .cancelled ? .cancelled : .fallBack
    }

    /// The service refused the platform's answer: `N500` with the reason, then the regular picker (on a second-screen
    /// device, the registration code for the MVPD the user chose).
    private func serviceFailure(
        _ details: String, chosen: String, in engine: isolated EntitlementEngine
    ) -> AuthenticationStateMachine.PlatformOutcome {
        engine.emit([
            .status(
                AccessEnablerStatus(
                    errorID: AccessEnablerStatus.ID.authenticationInternal, level: .error,
                    message: "The service did not accept the platform sign-on.", extras: [STATUS_DETAILS_KEY: details]))
        ])
        return engine.settings.deviceMode ? .regularFlow(mvpd: chosen) : .fallBack
    }
}
