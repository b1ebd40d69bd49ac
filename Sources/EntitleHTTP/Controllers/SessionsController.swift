import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import HTTPTypes
import Hummingbird

/// Authentication sessions: `POST {sp}/sessions`, `POST|GET|DELETE {sp}/sessions/{code}`.
package struct SessionsController {
    package let sessions: AuthenticationSessions
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    /// Single sign-on by platform identity and service token.
    package let singleSignOn: TokenSingleSignOn
    /// The integration of the MVPD picked.
    package let catalog: any CatalogReading

    /// Adds the routes to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.post("sessions") { request, context in
            let caller = context.caller
            let form = try await FormBody.fields(of: request, context: context)
            let identities = await singleSignOn.identities(
                SingleSignOnTokens(request.headers), requestor: caller.requestor.id, logger: context.logger)
            if !identities.isEmpty, let mvpdID = form["mvpd"].nonEmpty {
                // Single sign-on: the values are checked as for any session, then a shared sign-in skips the login.
                let mvpd = try await catalog.requireIntegratedMVPD(mvpdID, requestor: caller.requestor.id)
                _ = try sessions.validatedRedirectURL(form["redirectUrl"].nonEmpty, caller: caller)
                _ = try sessions.validatedDomain(form["domainName"].nonEmpty)
                if let shortcut = try await singleSignOn.sessionShortcut(caller: caller, mvpd: mvpd, identities: identities) { return shortcut }
            }
            let answer = try await sessions.createSession(caller: caller, form: form, tempPassIdentity: request.headers[.tempPassIdentity])
            try await singleSignOn.share(answer, caller: caller, identities: identities)
            return answer
        }
        group.post("sessions/:code") { request, context in
            let caller = context.caller
            let form = try await FormBody.fields(of: request, context: context)
            let session = try await sessions.liveSession(
                code: try context.parameters.require("code"), requestor: caller.requestor.id, bucket: caller.device.value)
            let answer = try await sessions.resumeSession(
                session, caller: caller, form: form, tempPassIdentity: request.headers[.tempPassIdentity])
            if session.clientId == caller.clientID, session.deviceId == caller.device.value {
                let identities = await singleSignOn.identities(
                    SingleSignOnTokens(request.headers), requestor: caller.requestor.id, logger: context.logger)
                try await singleSignOn.share(answer, caller: caller, identities: identities)
            }
            return answer
        }
        group.get("sessions/:code") { _, context in
            let caller = context.caller
            let session = try await sessions.liveSession(
                code: try context.parameters.require("code"), requestor: caller.requestor.id, bucket: caller.device.value)
            // A cancelled session cannot be resumed: say so, as its page does.
            guard session.status != .cancelled else {
                throw APIError(EnhancedError.invalidAuthenticationSession.with(details: "The session was cancelled on the device."))
            }
            var existing: [String: String] = ["serviceProvider": session.requestorId]
            existing["mvpd"] = session.mvpdId
            existing["domain"] = session.domainName
            existing["redirectUrl"] = session.redirectUrl
            return SessionResponse(
                actionName: session.status == .authenticated ? .authorize : (session.mvpdId == nil ? .resume : .authenticate),
                actionType: session.status == .authenticated ? .direct : .interactive,
                reasonType: session.status == .authenticated ? .authenticated : .none,
                missingParameters: sessions.missingParameters(session), existingParameters: existing, code: session.code,
                sessionId: session.sessionId, mvpd: session.mvpdId, serviceProvider: session.requestorId,
                notBefore: String(session.createdAt), notAfter: String(session.notAfter))
        }
        // The device that created a session gives it up (the user cancelled the login on the TV), so the code no longer
        // leads to a provider picker or a login page.
        group.delete("sessions/:code") { _, context in
            let caller = context.caller
            let session = try await sessions.liveSession(
                code: try context.parameters.require("code"), requestor: caller.requestor.id,
                bucket: caller.device.value)
            // Only the client and device that created the session may cancel it; to anyone else it does not exist.
            guard session.clientId == caller.clientID, session.deviceId == caller.device.value else { throw APIError(.invalidCode) }
            guard session.status != .authenticated else {
                throw APIError(EnhancedError.invalidAuthenticationSession.with(details: "The session is already complete."))
            }
            _ = try await sessionStore.cancelSession(code: session.code)
            return Response(status: .noContent)
        }
    }

    /// Creates the value from each of its stored properties.
    package init(
        sessions: AuthenticationSessions, sessionStore: any SignInSessionStoring, singleSignOn: TokenSingleSignOn, catalog: any CatalogReading
    ) {
        self.sessions = sessions
        self.sessionStore = sessionStore
        self.singleSignOn = singleSignOn
        self.catalog = catalog
    }
}
