import EntitleDomain
import EntitleModel
import Mustache

/// The values of one console page's template (`templates/console/<template>.mustache`). Mustache reads a value's stored
/// properties by name, so a property's name is the key its template uses; the frame's values (``ConsoleFrame``) are
/// seen beside them.
package protocol ConsolePageContent: Sendable {
    /// The template that renders it.
    static var template: String { get }
}

/// The menu entry a console page belongs to (`aria-current` in the frame's menu).
package enum ConsoleNav: Sendable {
    case requestors, mvpds, keys, operators, changes, reports, sso
}

/// The frame every console page shares (`templates/console/layout.mustache`): the signed-in operator, the CSRF token,
/// what the role may do, the menu entry, the change forms' ids and the message of the last change.
package struct ConsoleFrame: Sendable {
    /// The message of the last change, shown once.
    package struct Flash: Sendable {
        package var kind: String
        package var text: String
        package var error: Bool
    }

    /// A change form whose "why" field carries an id of its own (`templates/console/description.mustache`).
    package struct Form: Sendable {
        package var formID: String
    }

    package var title: String
    package var username: String
    package var role: String
    package var csrf: String
    package var mayChange: Bool
    /// Whether the operator may add and remove MVPDs (read-write and unscoped).
    package var mayChangeCatalog: Bool
    /// Whether the service-wide pages (keys, operators) are the operator's: it is unscoped.
    package var serviceWide: Bool
    /// Whether the single sign-on page is the operator's: it is not an MVPD partner only.
    package var showSSO: Bool
    /// What a scoped operator is limited to (`requestor:A mvpd:B`); nil for an unscoped one.
    package var scope: String?
    package var navRequestors = false
    package var navMVPDs = false
    package var navKeys = false
    package var navOperators = false
    package var navChanges = false
    package var navReports = false
    package var navSSO = false
    /// By form id (``ConsolePages/formIDs``): `{{#form.add-mvpd}}{{>description}}{{/form.add-mvpd}}`.
    package var form: [String: Form]
    package var flash: Flash?

    /// The frame of a page. A read-write operator may change what a page shows when it is unscoped, or when the page
    /// is about something within its scope (`withinScope`: its own requestor's or MVPD's page).
    package init(title: String, nav: ConsoleNav?, identity: OperatorIdentity, flash: ConsoleFlash?, withinScope: Bool = false) {
        (self.title, username, role, csrf) = (title, identity.username, identity.role.rawValue, identity.csrfToken)
        let unscoped = identity.scope.isUnscoped
        self.mayChange = identity.role.mayChange && (unscoped || withinScope)
        mayChangeCatalog = identity.role.mayChange && unscoped
        serviceWide = unscoped
        showSSO = unscoped || !identity.scope.requestors.isEmpty
        scope = unscoped ? nil : identity.scope.summary
        switch nav {
        case .requestors: navRequestors = true
        case .mvpds: navMVPDs = true
        case .keys: navKeys = true
        case .operators: navOperators = true
        case .changes: navChanges = true
        case .reports: navReports = true
        case .sso: navSSO = true
        case nil: break
        }
        form = Dictionary(uniqueKeysWithValues: ConsolePages.formIDs.map { ($0, Form(formID: $0)) })
        self.flash = flash.map { Flash(kind: $0.isError ? "error" : "ok", text: $0.text, error: $0.isError) }
    }
}

/// What a console page's template sees: a name is looked up in the frame, then in the page's own values.
struct ConsoleRendering<Content: ConsolePageContent>: MustacheParent {
    let frame: ConsoleFrame
    let content: Content

    func child(named name: String) -> Any? { Self.property(name, of: frame) ?? Self.property(name, of: content) }

    /// The stored property `name` of `value` as Mustache reads it: an absent optional is no value.
    static func property(_ name: String, of value: Any) -> Any? {
        guard let child = Mirror(reflecting: value).children.first(where: { $0.label == name }) else { return nil }
        let mirror = Mirror(reflecting: child.value)
        guard mirror.displayStyle == .optional else { return child.value }
        return mirror.children.first?.value
    }
}

/// The sign-in page (`signIn.mustache`, without the frame); `login` is the sign-in form's anti-forgery value.
package struct ConsoleSignInPage: Sendable {
    package var login: String
    package var username: String
    package var error: String?
}

/// A page that says why a request was refused (`message.mustache`).
package struct ConsoleMessagePage: ConsolePageContent {
    package static let template = "message"
    package var message: String
    package var back: String
}

/// Every requestor (`requestors.mustache`).
package struct ConsoleRequestorsPage: ConsolePageContent {
    package static let template = "requestors"

    package struct Row: Sendable {
        package var id: String
        package var name: String
        package var domains: String
        package var disabled: Bool
        package var integrationCount: Int
        package var enabledIntegrations: Int
    }

    package var requestors: [Row]
}

/// One requestor: its integrations, apps, clients, degradation rules, authorization answers kept, media-token
/// algorithm, legacy key pairs and TempPass (`requestor.mustache`).
package struct ConsoleRequestorPage: ConsolePageContent {
    package static let template = "requestor"

    package struct Requestor: Sendable {
        package var id: String
        package var name: String
        package var domains: String
        package var maxResources: Int64
        package var disabled: Bool
        package var profileLifetime: String
        package var authorizationTTL: String
        package var preflight: String
    }

    package struct Integration: Sendable {
        package var mvpd: String
        package var enabled: Bool
        package var displayName: String
    }

    package struct Statement: Sendable {
        package var softwareID: String
        package var name: String
        package var issuedAt: String
        package var revoked: Bool
        package var requestorID: String
    }

    package struct Client: Sendable {
        package var clientID: String
        package var softwareID: String
        package var issuedAt: String
        package var revoked: Bool
        /// The requestor's id (the revoke form goes back to its page).
        package var requestor: String
    }

    package struct Rule: Sendable {
        package var mvpd: String
        package var rule: String
        package var start: String
        package var end: String
    }

    package struct AuthorizationTTL: Sendable {
        package var mvpd: String
        package var scope: String
        package var seconds: Int64
    }

    package struct Algorithm: Sendable {
        package var name: String
        package var selected: Bool
    }

    package struct LegacyKey: Sendable {
        package var publicKey: String
        package var createdAt: String
        package var revoked: Bool
    }

    package var requestor: Requestor
    package var integrations: [Integration]
    package var statements: [Statement]
    package var clients: [Client]
    package var rules: [Rule]
    package var authorizationTTLs: [AuthorizationTTL]
    package var mediaTokenAlgorithm: String
    package var algorithms: [Algorithm]
    package var legacyKeys: [LegacyKey]
}

/// Every MVPD and the forms that add one (`mvpds.mustache`).
package struct ConsoleMVPDsPage: ConsolePageContent {
    package static let template = "mvpds"

    package struct Row: Sendable {
        package var id: String
        package var name: String
        package var kind: String
        package var authorizationProtocol: String
        package var disabled: Bool
        /// "proxy" for a proxy MVPD, "via {proxy}" for a proxied MVPD, nil for others.
        package var proxy: String? = nil
    }

    package var mvpds: [Row]
    package var oauth2RedirectURI: String
}

/// One MVPD: its settings, preflight by integration and the forms that change it (`mvpd.mustache`).
package struct ConsoleMVPDPage: ConsolePageContent {
    package static let template = "mvpd"

    /// Its settings; an absent URL is empty, an absent entity id (an OAuth 2.0 MVPD) nil, so its line is left out.
    package struct Settings: Sendable {
        package var id: String
        package var name: String
        package var kind: String
        package var entityID: String?
        package var singleSignOnURL: String
        package var signingCertificates: Int
        package var authorizationProtocol: String
        package var authorizationURL: String
        package var logoURL: String
    }

    /// The preflight of one integration: by channel lineup (`lineup`, the attribute) or by asking the MVPD, in calls
    /// of up to `maxResources` resources when set. Absent values close their sections.
    package struct Preflight: Sendable {
        package var requestor: String
        package var lineup: String?
        package var maxResources: String?
    }

    /// What one integration does with home-based (HBA) sign-ins; only integrations with a policy are listed.
    package struct HomeBased: Sendable {
        package var requestor: String
        /// The lifetime of home-based sign-ins, seconds (nil: as any other sign-in).
        package var profileTTLSeconds: String?
        /// The resources denied to them, comma-separated (nil: none).
        package var deniedResources: String?
    }

    /// The checkboxes and selected options of the edit form.
    package struct Flags: Sendable {
        package var requiresSafariViewController: Bool
        package var enablePlatformServices: Bool
        package var displayInPlatformPicker: Bool
        package var supported: Bool
        package var picker: Bool
        package var notSupported: Bool
        package var protocolNone: Bool
        package var protocolXACML: Bool
        package var protocolREST: Bool
        package var protocolJSON: Bool
    }

    package var mvpd: Settings
    package var disabled: Bool
    package var profileTTLSeconds: Int64
    /// Whether the preflight form offers the channel lineup (SAML MVPDs only).
    package var offersLineup: Bool
    package var preflight: [Preflight]
    package var homeBased: [HomeBased]
    package var flags: Flags
    /// A proxied MVPD: its proxy, and the name its proxy pushed (nil for other MVPDs, which closes the section).
    package var proxiedBy: String? = nil
    package var pushedName: String? = nil
}

/// The service's keys by purpose, with what a rotation affects (`keys.mustache`).
package struct ConsoleKeysPage: ConsolePageContent {
    package static let template = "keys"

    package struct Key: Sendable {
        package var kid: String
        package var state: String
        package var createdAt: String
        package var signsFrom: String
        /// Empty when it is not retired.
        package var retiredAt: String
    }

    package struct Purpose: Sendable {
        package var purpose: String
        package var impact: String
        /// Seconds before a rotated key signs.
        package var defaultDelay: Int64
        package var keys: [Key]
    }

    package var purposes: [Purpose]
}

/// The operator accounts and their failed sign-ins (`operators.mustache`).
package struct ConsoleOperatorsPage: ConsolePageContent {
    package static let template = "operators"

    package struct Operator: Sendable {
        package var username: String
        package var role: String
        package var state: String
        package var failures: Int
        package var hasFailures: Bool
    }

    package var operators: [Operator]
}

/// The changes log since a time (`changes.mustache`).
package struct ConsoleChangesPage: ConsolePageContent {
    package static let template = "changes"

    package struct Change: Sendable {
        package var at: String
        package var actor: String
        package var action: String
        package var target: String
        package var description: String
        package var before: String
        package var after: String
    }

    package var changes: [Change]
    /// The date-time field's value (`2026-11-24T08:00`).
    package var since: String
}

/// The reports' charts for a requestor and period (`reports.mustache`).
package struct ConsoleReportsPage: ConsolePageContent {
    package static let template = "reports"

    package struct Choice: Sendable {
        package var id: String
        package var selected: Bool
    }

    package struct Period: Sendable {
        package var value: String
        package var label: String
        package var selected: Bool
    }

    package struct Chart: Sendable {
        package var id: String
        package var title: String
    }

    package var requestors: [Choice]
    package var periods: [Period]
    /// The report API's query (`start=…&end=…&granularity=…`).
    package var query: String
    package var start: String
    package var end: String
    package var granularity: String
    package var charts: [Chart]
    /// The dimension of the breakdown charts (`resource`, `reason`…), and the choices of the form.
    package var breakdown: String
    package var breakdowns: [Period]
    /// The filters' choices (`client`, `sso`, `hba`) and typed values (`resource`, `reason`, `profile`).
    package var clients: [Choice]
    package var ssos: [Choice]
    package var hbas: [Choice]
    package var resource: String
    package var reason: String
    package var profile: String
}
