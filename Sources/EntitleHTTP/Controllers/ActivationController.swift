import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The second-screen activation pages: enter the code shown on the TV (`/activate`), pick the TV provider
/// (`/activate/providers`, with logos and search), then continue to that provider's login.
/// Every form carries a CSRF token bound to a cookie; wrong codes count against a per-address guess budget.
package struct ActivationController: ClockReading {
    /// Catalog reads.
    package let catalog: any CatalogReading
    /// Authentication sessions.
    package let sessionStore: any SignInSessionStoring
    package let sessions: AuthenticationSessions
    package let configuration: ServiceConfiguration
    package let pages: Pages
    package let clock: any ServiceClock

    package static let csrfCookie = "entitle_csrf"

    /// Adds the pages to the router.
    package func addRoutes(to router: Router<AppContext>) {
        router.get("/activate") { request, context in
            let (csrf, cookies) = csrfToken(request, https: context.forwardedHTTPS)
            let code = FormBody.query(of: request)["code"] ?? ""
            return pages.render(ActivatePage(title: "Activate your device", csrf: csrf, code: code), cookies: cookies)
        }
        router.post("/activate") { request, context in
            let form = try await FormBody.fields(of: request, context: context)
            guard checkCSRF(request, form) else { return expiredForm() }
            switch try await activationSession(code: form["code"] ?? "", ip: context.remoteIP, csrf: form["csrf"]) {
            case .page(let page): return page
            case .session(let session):
                // The device already chose its provider (`entitle device login --mvpd …`): straight to its login.
                if session.mvpdId != nil {
                    return Response(status: .seeOther, headers: [.location: "/api/v2/authenticate/\(session.requestorId)/\(session.code)"])
                }
                return try await picker(session: session, query: "", csrf: form["csrf"] ?? "")
            }
        }
        router.get("/activate/providers") { request, context in
            let query = FormBody.query(of: request)
            let (csrf, cookies) = csrfToken(request, https: context.forwardedHTTPS)
            switch try await activationSession(code: query["code"] ?? "", ip: context.remoteIP) {
            case .page(let page): return page
            case .session(let session):
                var response = try await picker(session: session, query: query["q"] ?? "", csrf: csrf)
                for cookie in cookies { response.setCookie(cookie) }
                return response
            }
        }
        router.post("/activate/select") { request, context in
            let form = try await FormBody.fields(of: request, context: context)
            guard checkCSRF(request, form) else { return expiredForm() }
            switch try await activationSession(code: form["code"] ?? "", ip: context.remoteIP) {
            case .page(let page): return page
            case .session(let session):
                guard let mvpd = form["mvpd"], try await catalog.integratedMVPD(requestor: session.requestorId, mvpd: mvpd) != nil else {
                    return pages.message(title: "Unknown TV provider", message: "Choose a provider from the list.", retry: true, status: .badRequest)
                }
                try await sessionStore.resumeSession(code: session.code, mvpd: mvpd, domainName: nil, redirectURL: nil)
                if session.mvpdId != nil, session.mvpdId != mvpd {
                    return pages.message(
                        title: "Provider already chosen", message: "This code is already being used with another TV provider.",
                        next: "Ask your TV for a new code.", retry: true, status: .conflict)
                }
                return Response(status: .seeOther, headers: [.location: "/api/v2/authenticate/\(session.requestorId)/\(session.code)"])
            }
        }
        router.get("/authenticated") { request, _ in
            let name = try await FormBody.query(of: request)["mvpd"].asyncMap { try await catalog.mvpd(id: $0)?.displayName } ?? nil
            let message = name.map { "Your \($0) account is now linked." } ?? "Your TV provider account is now linked."
            return pages.message(
                title: name.map { "You are signed in with \($0)" } ?? "You are signed in", message: message,
                next: "You can return to your TV or app: it will continue by it", success: true)
        }
    }

    /// The session of an activation code, or the page that explains what is wrong with the code.
    /// With `csrf` (a form was submitted), a wrong code shows the code form again, with the error and the code entered.
    package func activationSession(code raw: String, ip: String?, csrf: String? = nil) async throws -> ActivationLookup {
        let code = RegistrationCode.normalize(raw)
        let session = try await code.asyncMap { try await sessionStore.session(code: $0) } ?? nil
        guard let session else {
            do {
                try await sessions.countFailedCodeLookup(bucket: "ip:" + (ip ?? "unknown"))
            } catch let limit as RetryLater {
                var page = pages.message(
                    title: "Too many attempts", message: "Too many wrong codes were entered from this network.",
                    next: "Wait a minute, then try again.", status: .tooManyRequests)
                page.headers[.retryAfter] = String(limit.seconds)
                return .page(page)
            }
            if let csrf {
                return .page(
                    pages.render(
                        ActivatePage(
                            title: "That code is not valid", csrf: csrf, code: String(raw.prefix(32)),
                            error: "That code is not valid. Check the code on your TV and enter it again."),
                        status: .badRequest))
            }
            return .page(
                pages.message(
                    title: "That code is not valid", message: "Check the code on your TV and enter it again.",
                    retry: true, status: .badRequest))
        }
        guard session.status != .cancelled else {
            return .page(
                pages.message(
                    title: "This code was cancelled", message: "Signing in was cancelled on the TV or app that showed this code.",
                    next: "Start signing in again on your TV to get a new code.", retry: true, status: .gone))
        }
        guard session.notAfter > now else {
            return .page(
                pages.message(
                    title: "This code has expired", message: "Codes are valid for 30 minutes.",
                    next: "Start signing in again on your TV to get a new code.", retry: true, status: .gone))
        }
        guard session.status != .authenticated else {
            return .page(
                pages.message(
                    title: "This code has already been used", message: "The device linked to this code is already signed in.",
                    retry: true, status: .conflict))
        }
        return .session(session)
    }

    package func picker(session: AuthSessionRecord, query: String, csrf: String) async throws -> Response {
        let requestor = try await catalog.requestor(id: session.requestorId)
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        let mvpds = try await catalog.mvpds(requestor: session.requestorId)
            .filter { needle.isEmpty || $0.displayName.lowercased().contains(needle) || $0.id.lowercased().contains(needle) }
            .map {
                PickerPage.MVPD(
                    id: $0.id, displayName: $0.displayName, logoUrl: $0.logoUrl, hasLogo: !$0.logoUrl.isEmpty, initials: Self.initials($0.displayName)
                )
            }
        return pages.render(
            PickerPage(
                title: "Choose your TV provider", code: session.code, csrf: csrf, query: query, mvpds: mvpds,
                requestorName: requestor?.name ?? session.requestorId))
    }

    /// Up to two initials of a provider's name ("Demo Cable" → "DC"), shown when it has no logo or the logo does not load.
    package static func initials(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        let letters = words.prefix(2).compactMap(\.first).map { String($0).uppercased() }
        return letters.isEmpty ? "?" : letters.joined()
    }

    /// The CSRF token of the browser (from its cookie), or a new one with the cookie to set — `Secure` when the public
    /// URL is HTTPS or a trusted proxy says the browser came over HTTPS (`https`).
    package func csrfToken(_ request: Request, https: Bool) -> (String, [Cookie]) {
        if let existing = request.cookies[Self.csrfCookie]?.value, existing.count >= 32 { return (existing, []) }
        let token = Secrets.randomToken()
        let secure = https || configuration.publicBaseURL.hasPrefix("https://")
        return (token, [Cookie(name: Self.csrfCookie, value: token, path: "/activate", secure: secure, httpOnly: true, sameSite: .strict)])
    }

    package func checkCSRF(_ request: Request, _ form: [String: String]) -> Bool {
        guard let cookie = request.cookies[Self.csrfCookie]?.value, let field = form["csrf"], cookie.count >= 32 else { return false }
        return Secrets.constantTimeEqual(cookie, field)
    }

    package func expiredForm() -> Response {
        pages.message(
            title: "This page has expired", message: "The form could not be verified (it is old, or cookies are blocked).",
            retry: true, status: .forbidden)
    }

    /// Creates the value from each of its stored properties.
    package init(
        catalog: any CatalogReading, sessionStore: any SignInSessionStoring, sessions: AuthenticationSessions, configuration: ServiceConfiguration,
        pages: Pages,
        clock: any ServiceClock
    ) {
        self.catalog = catalog
        self.sessionStore = sessionStore
        self.sessions = sessions
        self.configuration = configuration
        self.pages = pages
        self.clock = clock
    }
}

/// What an activation code leads to: its session, or the page explaining why not.
package enum ActivationLookup {
    case session(AuthSessionRecord)
    case page(Response)
}
