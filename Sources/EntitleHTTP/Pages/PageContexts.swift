/// The values of one page's template (`templates/pages/<template>.mustache`). Mustache reads a value's stored
/// properties by name, so a property's name is the key its template uses; an absent optional closes its section.
package protocol PageContent: Sendable {
    /// The template that renders it.
    static var template: String { get }
}

/// `GET /activate`: the activation code form, again with the error and the code entered after a wrong code.
package struct ActivatePage: PageContent {
    package static let template = "activate"
    package var title: String
    /// The anti-forgery value of the form (also in a cookie).
    package var csrf: String
    package var code: String
    package var error: String?
}

/// The TV providers of the code's requestor, filtered by `query` (`picker.mustache`).
package struct PickerPage: PageContent {
    package static let template = "picker"

    package struct MVPD: Sendable {
        package var id: String
        package var displayName: String
        package var logoUrl: String
        package var hasLogo: Bool
        /// Shown when it has no logo or the logo does not load.
        package var initials: String
    }

    package var title: String
    package var code: String
    package var csrf: String
    package var query: String
    package var mvpds: [MVPD]
    package var requestorName: String
}

/// A page that says what happened and what to do next (`message.mustache`).
package struct MessagePage: PageContent {
    package static let template = "message"
    package var title: String
    package var message: String
    /// `ok` or `error`.
    package var kind: String
    /// Whether to offer "Enter another code".
    package var retry: Bool
    package var next: String?
    /// A "Return to your app" link.
    package var appLink: String?
    /// Where the browser is handed over at once (meta refresh).
    package var refresh: String?
}

/// `GET /`: what runs here and where to go next (`landing.mustache`).
package struct LandingPage: PageContent {
    package static let template = "landing"

    package struct Link: Sendable {
        package var path: String
        package var title: String
        package var what: String
    }

    package var links: [Link]
    /// Whether the DemoMVPD is mounted.
    package var demo: Bool
    /// The service's public base URL.
    package var base: String
}

/// A plain page with a title and a message, no layout (`plainMessage.mustache`).
package struct PlainMessagePage: PageContent {
    package static let template = "plainMessage"
    package var title: String
    package var message: String
}
