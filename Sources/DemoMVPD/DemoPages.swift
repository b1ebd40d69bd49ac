import EntitleCore
import Mustache

/// The demo MVPD's HTML pages: Mustache templates kept as string constants (no resource bundles, no external
/// assets). Every `{{value}}` is HTML-escaped by ``PageEscaping`` (the first line of each template chooses it); only the
/// provider's own SVG logo is inserted raw.
struct DemoPages: Sendable {
    private let library: MustacheLibrary

    /// Compiles the templates (they are constants, so a failure is a programming error).
    init() {
        PageEscaping.registered
        do {
            library = MustacheLibrary(templates: [
                "head": try MustacheTemplate(string: Self.head),
                "login": try MustacheTemplate(string: Self.login),
                "error": try MustacheTemplate(string: Self.error),
                "account": try MustacheTemplate(string: Self.account),
            ])
        } catch {
            preconditionFailure("DemoMVPD templates do not compile: \(error)")
        }
    }

    /// One demo account listed on the login page.
    struct DemoAccount: Sendable {
        let username: String
        let password: String
    }

    /// The login page.
    func login(
        provider: DemoProvider, action: String, samlRequest: String, relayState: String, csrf: String,
        username: String, errorMessage: String?, demoAccounts: [DemoAccount]
    ) -> String {
        render(
            "login",
            [
                "title": "Sign in – \(provider.displayName)",
                "brandColor": provider.brandColor,
                "logo": provider.logoSVG,
                "providerName": provider.displayName,
                "action": action,
                "samlRequest": samlRequest,
                "relayState": relayState,
                "csrf": csrf,
                "username": username,
                "hasError": errorMessage != nil,
                "errorMessage": errorMessage ?? "",
                "hasDemoAccounts": !demoAccounts.isEmpty,
                "demoAccounts": demoAccounts.map { ["username": $0.username, "password": $0.password] },
            ])
    }

    /// An error page (bad or untrusted request).
    func error(provider: DemoProvider?, heading: String, message: String) -> String {
        render(
            "error",
            [
                "title": heading,
                "brandColor": provider?.brandColor ?? "#444444",
                "hasLogo": provider != nil,
                "logo": provider?.logoSVG ?? "",
                "heading": heading,
                "message": message,
            ])
    }

    /// The account page: the subscriber's package, or a link to sign in.
    func account(provider: DemoProvider, subscriber: DemoSubscriber?, loginLink: String, logoutAction: String) -> String {
        var values: [String: Any] = [
            "title": "\(provider.displayName) account",
            "brandColor": provider.brandColor,
            "logo": provider.logoSVG,
            "providerName": provider.displayName,
            "signedIn": subscriber != nil,
            "loginLink": loginLink,
            "logoutAction": logoutAction,
        ]
        if let subscriber {
            values["username"] = subscriber.username
            values["userID"] = subscriber.userID
            values["householdID"] = subscriber.householdID
            values["channels"] = subscriber.channels.map { ["name": $0] }
            values["maxRating"] = subscriber.maxRating
        }
        return render("account", values)
    }

    private func render(_ name: String, _ values: [String: Any]) -> String {
        library.render(values, withTemplate: name) ?? ""
    }

    // MARK: templates

    static let head = """
        {{% CONTENT_TYPE: EntitleHTML}}
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{title}}</title>
        <style>
        body { margin: 0; font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; background: #f2f4f7;
               color: #1c1e21; font-size: 17px; line-height: 1.45; }
        main { max-width: 26rem; margin: 2rem auto; padding: 1.5rem; background: #fff; border-radius: 14px;
               box-shadow: 0 2px 12px rgba(0,0,0,.08); border-top: 6px solid {{brandColor}}; }
        @media (max-width: 30rem) { main { margin: 0; border-radius: 0; min-height: 100vh; box-sizing: border-box; } }
        .logo svg { max-width: 100%; height: auto; }
        h1 { font-size: 1.4rem; margin: 1rem 0; }
        label { display: block; font-weight: 600; margin: 1rem 0 .3rem; }
        input[type=text], input[type=password] { width: 100%; box-sizing: border-box; font-size: 1.05rem; padding: .7rem;
               border: 1px solid #b8bec6; border-radius: 8px; }
        button, .button { display: inline-block; margin-top: 1.4rem; width: 100%; padding: .8rem; font-size: 1.05rem;
               font-weight: 600; color: #fff; background: {{brandColor}}; border: 0; border-radius: 8px; text-align: center;
               text-decoration: none; cursor: pointer; box-sizing: border-box; }
        .error { background: #fdecea; color: #8a1c10; border: 1px solid #f5c2bb; padding: .7rem; border-radius: 8px; }
        .muted { color: #5f6670; font-size: .95rem; }
        dt { font-weight: 600; margin-top: .6rem; }
        dd { margin: 0; }
        code { background: #eef0f3; padding: .05rem .3rem; border-radius: 4px; }
        details { margin-top: 1.5rem; }
        </style>
        </head>
        """

    static let login = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{> head}}
        <body>
        <main>
        <div class="logo">{{{logo}}}</div>
        <h1>Sign in to {{providerName}}</h1>
        <p class="muted">Use your {{providerName}} username and password to watch on this device.</p>
        {{#hasError}}<p class="error" role="alert" id="login-error">{{errorMessage}}</p>{{/hasError}}
        <form method="post" action="{{action}}" autocomplete="on">
        <label for="username">Username</label>
        <input id="username" name="username" type="text" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" required value="{{username}}">
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <input type="hidden" name="SAMLRequest" value="{{samlRequest}}">
        <input type="hidden" name="RelayState" value="{{relayState}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" id="sign-in">Sign in</button>
        </form>
        {{#hasDemoAccounts}}
        <details>
        <summary>Demo accounts</summary>
        <ul>{{#demoAccounts}}<li><code>{{username}}</code> / <code>{{password}}</code></li>{{/demoAccounts}}</ul>
        </details>
        {{/hasDemoAccounts}}
        </main>
        </body>
        </html>
        """

    static let error = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{> head}}
        <body>
        <main>
        {{#hasLogo}}<div class="logo">{{{logo}}}</div>{{/hasLogo}}
        <h1>{{heading}}</h1>
        <p class="error" role="alert">{{message}}</p>
        <p class="muted">Go back to the app or website you came from and try again.</p>
        </main>
        </body>
        </html>
        """

    static let account = """
        {{% CONTENT_TYPE: EntitleHTML}}
        {{> head}}
        <body>
        <main>
        <div class="logo">{{{logo}}}</div>
        <h1>Your {{providerName}} account</h1>
        {{#signedIn}}
        <dl>
        <dt>Signed in as</dt><dd>{{username}} <span class="muted">({{userID}})</span></dd>
        <dt>Household</dt><dd>{{householdID}}</dd>
        <dt>Channels in your package</dt><dd><ul>{{#channels}}<li>{{name}}</li>{{/channels}}</ul></dd>
        <dt>Parental controls</dt><dd>Programs up to {{maxRating}}</dd>
        </dl>
        <form method="post" action="{{logoutAction}}"><button type="submit">Sign out</button></form>
        {{/signedIn}}
        {{^signedIn}}
        <p>You are not signed in.</p>
        <a class="button" href="{{loginLink}}">Sign in to {{providerName}}</a>
        {{/signedIn}}
        </main>
        </body>
        </html>
        """
}

/// The escaping of every `{{value}}` in the DemoMVPD's templates: ``XMLEscape/html(_:)``, which works on Unicode
/// scalars. Mustache's own HTML escaping works on Swift `Character`s and lets a quote through when a combining mark
/// follows it (one Character, but a quote that ends the attribute to a browser). The service registers the same
/// escaping under the same name.
struct PageEscaping: MustacheContentType {
    /// The name the templates' pragma uses.
    static let name = "EntitleHTML"

    /// Registers the content type with Mustache; templates that use it must be parsed after this ran.
    static let registered: Void = MustacheContentTypes.register(PageEscaping(), named: name)

    func escapeText(_ text: String) -> String { XMLEscape.html(text) }
}
