import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// REST API v1, authentication side (protocol notes §3.1–3.10, §3.19): registration codes (reggie), the MVPD list,
/// the browser leg, the checks, the AuthN token and the TempPass free preview. Registration codes are REST v2
/// authentication sessions, so a code made here can be used on the v2 and activation pages, and the other way round.
extension LegacyV1Controller {
    /// The longest registration code lifetime accepted, seconds.
    package static let v1MaximumCodeTTL: Int64 = 36_000

    package func addAuthenticationRoutes(api: Groups, reggie: Groups, browser: RouterGroup<AppContext>) {
        reggie.device.post(":requestor/regcode") { request, context in
            try await self.v1CreateCode(context.v1, caller: context.caller)
        }
        reggie.app.get(":requestor/regcode/:code") { request, context in
            let session = try await self.v1Code(context.caller, code: try context.parameters.require("code"))
            return self.v1Registration(session, v1: context.v1).response(context.v1.format)
        }
        reggie.app.delete(":requestor/regcode/:code") { request, context in
            let session = try await self.v1Code(context.caller, code: try context.parameters.require("code"))
            try await self.sessionStore.expireSession(code: session.code, at: self.now)
            return self.v1Empty()
        }
        api.app.get("config/:requestor") { request, context in
            try await self.shared.v1Configuration(context.caller, v1: context.v1)
        }
        browser.get("authenticate") { request, _ in try await self.v1Authenticate(request) }
        api.app.get("checkauthn/:code") { request, context in
            let session = try await self.v1Code(context.caller, code: try context.parameters.require("code"))
            guard session.status == .authenticated,
                try await self.shared.checks.profile(requestor: session.requestorId, sessionCode: session.code) != nil
            else {
                throw APIError(.v1(403, "authentication_session_missing", "Forbidden", action: "authentication"))
            }
            return self.v1Empty(.ok)
        }
        api.device.get("checkauthn") { request, context in
            _ = try await self.shared.v1Profile(
                context.caller, missing: .v1(403, "authentication_session_missing", "Not authenticated", action: "authentication"),
                expired: .v1(403, "authentication_session_expired", "Authentication token expired", action: "authentication"))
            return self.v1Empty(.ok)
        }
        api.device.get("tokens/authn") { request, context in
            let profile = try await self.shared.v1Profile(context.caller, missing: .v1AuthnNotFound, expired: .v1AuthnExpired)
            return V1Document(
                xmlRoot: "authentication",
                value: .object([
                    ("expires", .string(String(profile.notAfter))), ("userId", .string(profile.userId)), ("mvpd", .string(profile.mvpdId)),
                    ("requestor", .string(profile.requestorId)),
                ])
            ).response(context.v1.format)
        }
        api.device.post("authenticate/freepreview") { request, context in
            let (v1, caller) = (context.v1, context.caller)
            guard let mvpdID = v1["mso_id"],
                let mvpd = try await self.catalog.integratedMVPD(requestor: caller.requestor.id, mvpd: mvpdID),
                mvpd.isTempPass
            else {
                throw APIError(.v1(400, "unknown_integration", "mso_id is not a TempPass provider of this requestor.", action: "configuration"))
            }
            let identity = try Self.v1GenericData(v1["generic_data"])
            try await tempPass.startTempPass(
                requestor: caller.requestor.id, clientID: caller.clientID, device: caller.device.value,
                mvpd: mvpd, sessionCode: nil, identityHeader: identity)
            return self.v1Empty()
        }
    }

    package func v1CreateCode(_ v1: V1Request, caller: CallerIdentity) async throws -> Response {
        let requestor = caller.requestor.id
        var ttl: Int64 = configuration.sessionLifetime / 1000
        if let text = v1["ttl"] {
            guard let seconds = Int64(text), seconds > 0, seconds <= Self.v1MaximumCodeTTL else {
                throw APIError(.v1(400, "invalid_parameter_value", "ttl must be a number of seconds between 1 and 36000."))
            }
            ttl = seconds
        }
        var mvpdID: String?
        if let mvpd = v1["mvpd"] {
            guard try await catalog.integratedMVPD(requestor: requestor, mvpd: mvpd) != nil else {
                throw APIError(.v1(400, "unknown_integration", "The mvpd is not integrated with this requestor.", action: "configuration"))
            }
            mvpdID = mvpd
        }
        let now = self.now
        var session = AuthSessionRecord(
            code: "", sessionId: UUID().uuidString.lowercased(), requestorId: requestor, clientId: caller.clientID,
            deviceId: caller.device.value, mvpdId: mvpdID, domainName: nil, redirectUrl: nil, status: .pending,
            authnRequestId: nil, failure: nil, createdAt: now, notAfter: now + ttl * 1000, platform: caller.origin.platform,
            app: caller.app, reportClient: caller.client, appProfile: caller.appProfile, reportVisitor: caller.visitor)
        for _ in 0..<5 {
            session.code = RegistrationCode.make()
            if try await sessionStore.insertSession(session) { return v1Registration(session, v1: v1).response(v1.format, status: .created) }
        }
        throw APIError(.internalServerError)
    }

    /// A live registration code of the caller's requestor.
    package func v1Code(_ caller: CallerIdentity, code raw: String) async throws -> AuthSessionRecord {
        guard let code = RegistrationCode.normalize(raw), let session = try await sessionStore.session(code: code),
            session.requestorId == caller.requestor.id, session.notAfter > now
        else {
            try await sessions.countFailedCodeLookup(bucket: caller.clientID)
            throw APIError(.v1(404, "invalid_registration_code", "The registration code is unknown or expired."))
        }
        return session
    }

    /// The registration record (§3.1): `id, code, requestor, mvpd, generated, expires, info`.
    package func v1Registration(_ session: AuthSessionRecord, v1: V1Request) -> V1Document {
        var info: [(String, V1Value)] = [("deviceId", .string(Data(session.deviceId.utf8).base64EncodedString()))]
        if let deviceInfo = v1.request.headers[.deviceInfo] ?? v1["device_info"] { info.append(("deviceInfo", .string(deviceInfo))) }
        if let agent = v1.request.headers[.userAgent] { info.append(("userAgent", .string(agent))) }
        for legacy in ["deviceType", "deviceUser", "appId", "appVersion", "registrationURL"] {
            if let value = v1[legacy] { info.append((legacy, .string(value))) }
        }
        info.append(("authorizationType", .string(session.clientId.hasPrefix("hmac:") ? "HMAC" : "OAUTH2")))
        return V1Document(
            xmlRoot: "ns2:regcode xmlns:ns2=\"model.mvc.reggie.pass.adobe.com\"",
            value: .object([
                ("id", .string(session.sessionId)), ("code", .string(session.code)), ("requestor", .string(session.requestorId)),
                ("mvpd", session.mvpdId.map(V1Value.string) ?? .null), ("generated", .int(session.createdAt)), ("expires", .int(session.notAfter)),
                ("info", .object(info)),
            ]))
    }

    /// `generic_data` (Promotional TempPass identity) as the Base64 JSON of REST v2's `AP-TempPass-Identity`: accepts
    /// JSON (`{"email":"…"}`), Base64 JSON, or the documented `("email":"…")` form.
    package static func v1GenericData(_ value: String?) throws -> String? {
        guard var text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.hasPrefix("(") && text.hasSuffix(")") { text = "{" + text.dropFirst().dropLast() + "}" }
        if text.hasPrefix("{") { return Data(text.utf8).base64EncodedString() }
        return text
    }

    /// `GET /api/v1/authenticate` (browser): binds the code to the MVPD, domain and redirect URL, then continues with
    /// the SAML leg shared with REST v2 (`/adobe-services/authenticate/saml`).
    package func v1Authenticate(_ request: Request) async throws -> Response {
        let query = FormBody.query(of: request)
        guard let code = query["reg_code"].flatMap(RegistrationCode.normalize), let session = try await sessionStore.session(code: code),
            session.requestorId == query["requestor_id"], session.notAfter > now
        else {
            return pages.plainMessage(
                title: "This sign-in link is not valid",
                message: "The registration code is unknown or has expired. Start signing in again on your device.",
                status: .badRequest)
        }
        guard let requestor = try await catalog.requestor(id: session.requestorId),
            let mvpdID = query["mso_id"], try await catalog.integratedMVPD(requestor: session.requestorId, mvpd: mvpdID) != nil
        else {
            return pages.plainMessage(title: "Unknown TV provider", message: "This TV provider is not available here.", status: .badRequest)
        }
        let domains = requestor.domains
        // Adobe records `domain_name` without gating on it (clients in the field hard-code `adobe.com`); the
        // redirect URL below is the check that protects the user, so only a malformed domain is refused.
        guard let domain = query["domain_name"], Self.isWellFormedDomainName(domain) else {
            return pages.plainMessage(
                title: "This sign-in link is not valid", message: "The domain name is missing or malformed.",
                status: .badRequest)
        }
        let requested = query["redirect_url"] ?? configuration.authenticatedPageURL
        let registered = try await clients.client(id: session.clientId)?.redirectURIs ?? []
        // The normalized target is what the session keeps and the browser is sent to, never the value as sent.
        guard
            let redirect = requested == configuration.authenticatedPageURL
                ? requested : RedirectURIPolicy.allowedTarget(requested, registered: registered, domains: domains)
        else {
            return pages.plainMessage(
                title: "This sign-in link is not valid", message: "The redirect URL is not registered for this programmer.",
                status: .badRequest)
        }
        if session.status == .authenticated { return HTMLPage.redirect(to: session.redirectUrl ?? redirect) }
        try await sessionStore.resumeSession(code: code, mvpd: mvpdID, domainName: domain, redirectURL: redirect)
        return HTMLPage.redirect(
            to: "/adobe-services/authenticate/saml?"
                + FormURLEncoding.encode([
                    ("noflash", "true"), ("mso_id", mvpdID), ("requestor_id", session.requestorId), ("domain_name", domain),
                    ("redirect_url", redirect), ("reg_code", code),
                ]))
    }
}

extension LegacyV1Controller {
    /// A host name as clients send it in `domain_name`: 1–253 letters, digits, dots and hyphens.
    package static func isWellFormedDomainName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 253
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "." || $0 == "-") }
    }
}

extension MVPDRecord {
    /// The `<mvpd>` element of the config document (protocol notes §4.2). The login page opens in an iframe of the size a
    /// proxy pushed for its proxied MVPD (`<iframeSize>`); every other login page is a full page (500 × 300 when asked).
    package var v1Configuration: V1Value {
        let iframe = iframeWidth != nil || iframeHeight != nil
        var fields: [(String, V1Value)] = [
            ("id", .string(id)), ("displayName", .string(displayName)), ("logoUrl", .string(logoUrl)),
            ("authPerAggregator", .bool(isTempPass)), ("passiveAuthnEnabled", .bool(false)), ("authPerBrowserSession", .bool(false)),
            ("iFrameRequired", .bool(iframe)), ("iFrameWidth", .int(iframeWidth ?? 500)), ("iFrameHeight", .int(iframeHeight ?? 300)),
            ("tempPass", .bool(isTempPass)),
        ]
        if enablePlatformServices {
            fields += [
                ("enablePlatformServices", .bool(true)), ("boardingStatus", boardingStatus.map(V1Value.string) ?? .null),
                ("displayInPlatformPicker", .bool(displayInPlatformPicker)),
                ("platformMappingId", platformMappingId.map(V1Value.string) ?? .null),
            ]
        }
        return .object(fields)
    }
}
