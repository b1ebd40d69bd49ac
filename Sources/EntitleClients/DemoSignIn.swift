import Foundation

/// Signs a subscriber in through the browser leg: authentication URL (→ the auto-posting AuthnRequest form, when the
/// MVPD takes the HTTP-POST binding) → MVPD login form → SAML POST → redirect.
package enum DemoSignIn {
    /// Completes the login in `browser` and returns where the browser was sent at the end.
    package static func signIn(browser: BrowserClient, authenticationURL: String, username: String, password: String) async throws
        -> BrowserClient.Outcome
    {
        let afterLogin = try await login(browser: browser, authenticationURL: authenticationURL, username: username, password: password)
        guard case .page(let postPage) = afterLogin else { return afterLogin }
        guard let samlForm = postPage.forms.first(where: { $0["SAMLResponse"] != nil }) else { return afterLogin }
        return try await browser.submit(samlForm, from: postPage)
    }

    /// Logs in at the MVPD and stops before the browser posts the MVPD's answer: the auto-post page and its SAML form
    /// (tests that alter, replay or forge the answer start here).
    package static func loginUntilAssertion(browser: BrowserClient, authenticationURL: String, username: String, password: String)
        async throws -> (page: BrowserClient.Page, form: HTMLForm)
    {
        let afterLogin = try await login(browser: browser, authenticationURL: authenticationURL, username: username, password: password)
        guard case .page(let postPage) = afterLogin, let samlForm = postPage.forms.first(where: { $0["SAMLResponse"] != nil }) else {
            throw BrowserError("No SAML form after the login.")
        }
        return (postPage, samlForm)
    }

    /// Opens the authentication URL and submits the MVPD's login form.
    private static func login(browser: BrowserClient, authenticationURL: String, username: String, password: String) async throws
        -> BrowserClient.Outcome
    {
        // The service's page may post the AuthnRequest to the MVPD by itself (HTTP-POST binding): follow it.
        let opened = try await browser.followingAutoPost(try await browser.get(authenticationURL))
        guard case .page(let loginPage) = opened else { throw BrowserError("No login page.") }
        guard var form = loginPage.forms.first(where: { $0["password"] != nil || $0.fields.contains { $0.0 == "password" } }) else {
            throw BrowserError("No login form at \(loginPage.url) (HTTP \(loginPage.status)).")
        }
        form.set("username", username)
        form.set("password", password)
        return try await browser.submit(form, from: loginPage)
    }
}
