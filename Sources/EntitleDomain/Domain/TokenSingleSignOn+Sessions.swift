import EntitleCore
import EntitleModel
import Foundation

extension TokenSingleSignOn {
    /// `POST sessions` for an MVPD the device has no sign-in with, when a sign-in shared under one of `identities` is
    /// in force for it: the app goes straight to decisions (`authorize`, `authenticatedSSO`); nil otherwise.
    package func sessionShortcut(caller: CallerIdentity, mvpd: MVPDRecord, identities: [SSOIdentity]) async throws -> SessionResponse? {
        guard !identities.isEmpty, !mvpd.isTempPass else { return nil }
        let sp = caller.requestor.id
        if let own = try await profiles.profile(requestor: sp, client: caller.clientID, device: caller.device.value, mvpd: mvpd.id),
            own.notAfter > now
        {
            return nil
        }
        guard try await sharedProfiles(identities, caller: caller, mvpd: mvpd.id)[mvpd.id] != nil else { return nil }
        return SessionResponse(
            actionName: .authorize, actionType: .direct, reasonType: .authenticatedSSO, url: "/api/v2/\(sp)/decisions/authorize/\(mvpd.id)",
            sessionId: UUID().uuidString.lowercased(), mvpd: mvpd.id, serviceProvider: sp)
    }

    /// Shares what a `POST sessions` answered under `identities`: the sign-in its code starts, or the device's own
    /// sign-in with the MVPD when it was already signed in.
    package func share(_ answer: SessionResponse, caller: CallerIdentity, identities: [SSOIdentity]) async throws {
        guard !identities.isEmpty else { return }
        if let code = answer.code, answer.actionName != .authorize {
            try await share(sessionCode: code, requestor: caller.requestor.id, identities: identities)
        } else if answer.reasonType == .authenticated, let mvpd = answer.mvpd {
            try await shareExisting(caller: caller, mvpd: mvpd, identities: identities)
        }
    }
}
