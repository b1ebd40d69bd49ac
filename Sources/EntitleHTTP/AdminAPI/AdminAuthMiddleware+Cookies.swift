import EntitleDomain
import EntitleModel
import Hummingbird

extension AdminAuthMiddleware {
    /// The operator's session cookie, set at sign-in by the admin API and the console alike: `HttpOnly`,
    /// `SameSite=Strict`, `Secure` behind TLS, for the session's absolute lifetime.
    package static func sessionCookie(_ token: String, accounts: OperatorAccounts, secure: Bool) -> Cookie {
        Cookie(
            name: cookieName, value: token, maxAge: Int(accounts.absoluteTimeout.components.seconds), path: "/", secure: secure, httpOnly: true,
            sameSite: .strict)
    }

    /// The cookie that removes the session from the browser at sign-out.
    package static var signedOutCookie: Cookie { Cookie(name: cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict) }

    /// Whether the browser reached the service over TLS (a trusted proxy said so, or the public URL is `https`):
    /// cookies are then `Secure`.
    package static func isSecure(_ context: AppContext, publicBaseURL: String) -> Bool {
        context.forwardedHTTPS || publicBaseURL.hasPrefix("https://")
    }
}
