import EntitleCore
import EntitleDomain
import EntitleModel
import Foundation
import Hummingbird

/// The console's MVPD pages: the list, adding a SAML MVPD from its metadata (uploaded or by URL) or an OAuth 2.0 MVPD
/// from its endpoints, editing one, disabling, enabling and removing it, and its integrations' preflight and
/// home-based sign-ins.
package struct ConsoleMVPDRoutes: ConsoleRoutes {
    package let mvpds: MVPDOperations
    package let oauth2MVPDs: OAuth2MVPDOperations
    package let integrations: IntegrationOperations
    package let pages: ConsolePages

    /// Creates the value from each of its stored properties.
    package init(mvpds: MVPDOperations, oauth2MVPDs: OAuth2MVPDOperations, integrations: IntegrationOperations, pages: ConsolePages) {
        self.mvpds = mvpds
        self.oauth2MVPDs = oauth2MVPDs
        self.integrations = integrations
        self.pages = pages
    }

    /// Adds the MVPD pages and their changes to `group` (`/console`, signed in).
    package func addRoutes(to group: RouterGroup<AdminContext>) {
        group.get("mvpds", use: mvpdsPage)
        group.get("mvpds/:id", use: mvpdPage)
        group.post("mvpds") { request, context in
            try await change(request, context, back: "/console/mvpds") { form in try await addMVPD(form, actor: context.operatorIdentity.actor) }
        }
        group.post("oauth2-mvpds") { request, context in
            try await change(request, context, back: "/console/mvpds") { form in
                try await addOAuth2MVPD(form, actor: context.operatorIdentity.actor)
            }
        }
        group.post("mvpds/:id") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.mvpdPath(id)) { form in
                try await mvpds.update(id: id, try Self.update(from: form), actor: context.operatorIdentity.actor)
                return "\(id) is saved."
            }
        }
        for (action, disabled) in [("disable", true), ("enable", false)] {
            group.post("mvpds/:id/\(action)") { request, context in
                let id = try context.parameters.require("id")
                return try await change(request, context, back: Self.mvpdPath(id)) { _ in
                    try await mvpds.setDisabled(id: id, disabled, actor: context.operatorIdentity.actor)
                    return "\(id) is \(disabled ? "disabled for every requestor" : "enabled")."
                }
            }
        }
        group.post("mvpds/:id/preflight") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.mvpdPath(id)) { form in
                try await setPreflight(form, mvpd: id, actor: context.operatorIdentity.actor)
            }
        }
        group.post("mvpds/:id/hba") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: Self.mvpdPath(id)) { form in
                try await setHomeBased(form, mvpd: id, actor: context.operatorIdentity.actor)
            }
        }
        group.post("mvpds/:id/remove") { request, context in
            let id = try context.parameters.require("id")
            return try await change(request, context, back: "/console/mvpds") { _ in
                try await mvpds.remove(id: id, actor: context.operatorIdentity.actor)
                return "\(id) and its integrations are removed."
            }
        }
    }

    package func mvpdsPage(_ request: Request, context: AdminContext) async throws -> Response {
        let rows = try await mvpds.views().map {
            var row = ConsoleMVPDsPage.Row(
                id: $0.id, name: $0.name, kind: $0.kind, authorizationProtocol: $0.authorizationProtocol, disabled: $0.disabled)
            row.proxy = $0.proxyMVPD.map { "via " + $0 } ?? ($0.proxy == nil ? nil : "proxy")
            return row
        }
        return pages.page(
            ConsoleMVPDsPage(mvpds: rows, oauth2RedirectURI: oauth2MVPDs.redirectURI), title: "MVPDs", nav: .mvpds,
            identity: context.operatorIdentity, flash: ConsoleFlash(request: request))
    }

    package func mvpdPage(_ request: Request, context: AdminContext) async throws -> Response {
        let id = try context.parameters.require("id")
        let mvpd: MVPDView
        do { mvpd = try await mvpds.view(id: id) } catch let error as AdminError where error.status != 403 {
            return pages.problem(ConsoleFailure(status: .notFound, error.description), identity: context.operatorIdentity, back: "/console/mvpds")
        }
        var content = ConsoleMVPDPage(
            mvpd: .init(
                id: mvpd.id, name: mvpd.name, kind: mvpd.kind, entityID: mvpd.entityID, singleSignOnURL: mvpd.singleSignOnURL ?? "",
                signingCertificates: mvpd.signingCertificates, authorizationProtocol: mvpd.authorizationProtocol,
                authorizationURL: mvpd.authorizationURL ?? "", logoURL: mvpd.logoURL),
            disabled: mvpd.disabled, profileTTLSeconds: mvpd.profileTTLSeconds, offersLineup: mvpd.kind == "saml",
            // Only present values: an empty string would open the template's section.
            preflight: mvpd.integrations.map { integration in
                ConsoleMVPDPage.Preflight(
                    requestor: integration.requestor, lineup: mvpd.preflightLineup[integration.requestor],
                    maxResources: mvpd.preflightMaxResources[integration.requestor].map { "\($0)" })
            },
            homeBased: try await homeBasedPolicies(mvpd: mvpd),
            flags: .init(
                requiresSafariViewController: mvpd.requiresSafariViewController, enablePlatformServices: mvpd.enablePlatformServices,
                displayInPlatformPicker: mvpd.displayInPlatformPicker, supported: mvpd.boardingStatus == "SUPPORTED",
                picker: mvpd.boardingStatus == "PICKER", notSupported: mvpd.boardingStatus == "NOT_SUPPORTED",
                protocolNone: mvpd.authorizationProtocol == "none", protocolXACML: mvpd.authorizationProtocol == "xacml",
                protocolREST: mvpd.authorizationProtocol == "rest", protocolJSON: mvpd.authorizationProtocol == "entitle-json"))
        (content.proxiedBy, content.pushedName) = (mvpd.proxyMVPD, mvpd.proxied?.displayName)
        return pages.page(
            content, title: "MVPD \(id)", nav: .mvpds, identity: context.operatorIdentity, flash: ConsoleFlash(request: request),
            withinScope: context.operatorIdentity.scope.mvpds.contains(id))
    }

    /// Adds a SAML MVPD from the add form: metadata uploaded or fetched from its URL (remembered for `mvpd refresh`).
    private func addMVPD(_ form: ConsoleForm, actor: String) async throws -> String {
        let (id, name) = try Self.newMVPDName(form)
        let url = form["metadataURL"]
        let metadataXML: String
        switch (form["metadataFile"], url) {
        case (let file?, nil): metadataXML = file
        case (nil, let url?): metadataXML = try await mvpds.fetchMetadata(url)
        case (nil, nil): throw ConsoleFailure(status: .badRequest, "Upload the MVPD's IdP metadata or give its URL.")
        case (_?, _?): throw ConsoleFailure(status: .badRequest, "Upload the metadata or give its URL, not both.")
        }
        guard try await mvpds.mvpd(id: id) == nil else {
            throw ConsoleFailure(status: .conflict, "An MVPD \(id) exists already: edit it from its page.")
        }
        let (options, requestors) = try Self.newMVPDOptions(form, name: name)
        try await mvpds.importSAML(id: id, metadataXML: metadataXML, options: options, requestors: requestors, actor: actor)
        if let url {
            var source = MVPDUpdate()
            source.samlMetadataURL = url
            try await mvpds.update(id: id, source, actor: actor)
        }
        return "\(id) is added\(requestors.isEmpty ? "" : " and integrated with \(requestors.joined(separator: ", "))")."
    }

    /// Adds an OAuth 2.0 MVPD from its add form: discovered from its OpenID issuer, or the endpoints given.
    private func addOAuth2MVPD(_ form: ConsoleForm, actor: String) async throws -> String {
        let (id, name) = try Self.newMVPDName(form)
        guard try await mvpds.mvpd(id: id) == nil else {
            throw ConsoleFailure(status: .conflict, "An MVPD \(id) exists already: edit it from its page.")
        }
        var fields = OAuth2MVPDFields()
        (fields.issuer, fields.authorizeURL, fields.tokenURL) = (form["issuer"], form["authorizeURL"], form["tokenURL"])
        (fields.userinfoURL, fields.logoutURL, fields.userIDClaim) = (form["userinfoURL"], form["logoutURL"], form["userIDClaim"])
        (fields.clientID, fields.clientSecret) = (form["clientID"], form["clientSecret"])
        fields.scopes = form["scopes"].map { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
        let settings = try await oauth2MVPDs.settings(from: fields)
        let (options, requestors) = try Self.newMVPDOptions(form, name: name)
        try await oauth2MVPDs.save(id: id, options: options, oauth2: settings, requestors: requestors, actor: actor)
        return "\(id) is added\(requestors.isEmpty ? "" : " and integrated with \(requestors.joined(separator: ", "))")."
    }

    /// The id and display name of a new MVPD's form.
    package static func newMVPDName(_ form: ConsoleForm) throws -> (id: String, name: String) {
        guard let id = form["id"], let name = form["name"] else { throw ConsoleFailure(status: .badRequest, "Give the MVPD's id and display name.") }
        return (id, name)
    }

    /// The options and requestors of a new MVPD's form (display name, logo, authorization protocol and URL).
    package static func newMVPDOptions(_ form: ConsoleForm, name: String) throws -> (MVPDOptions, [String]) {
        var options = MVPDOptions(displayName: name, logoURL: form["logoURL"] ?? "", authorizationURL: form["authorizationURL"])
        // Absent, the CLI's default: ask the MVPD (never "authorize every signed-in subscriber" unless chosen).
        let protocolName = form["authorizationProtocol"] ?? MVPDAuthorizationProtocol.entitleJSON.rawValue
        guard let kind = MVPDAuthorizationProtocol(rawValue: protocolName) else {
            throw ConsoleFailure(status: .badRequest, "Unknown authorization protocol \(protocolName).")
        }
        options.authorizationProtocol = kind
        options.authorizeAllAuthenticated = kind == .noCall
        let requestors = (form["requestors"] ?? "").split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init)
        return (options, requestors)
    }

    /// Sets how one integration of the MVPD preflights, from the preflight form (an empty attribute: the default).
    private func setPreflight(_ form: ConsoleForm, mvpd: String, actor: String) async throws -> String {
        guard let requestor = form["requestor"] else { throw ConsoleFailure(status: .badRequest, "Give the requestor of the integration.") }
        let name = form["preflightMode"] ?? ""
        guard let mode = PreflightMode(rawValue: name) else {
            throw ConsoleFailure(status: .badRequest, "Unknown preflight mode \(name): use lineup or mvpd.")
        }
        let attribute = mode == .lineup ? form["lineupAttribute"] : nil
        try await integrations.setPreflightMode(requestor: requestor, mvpd: mvpd, mode, attribute: attribute, actor: actor)
        return mode == .lineup
            ? "\(requestor)/\(mvpd) preauthorizes by channel lineup (\(attribute ?? IntegrationOperations.defaultLineupAttribute))."
            : "\(requestor)/\(mvpd) preauthorizes by asking the MVPD."
    }

    /// The HBA policy of each integration of the MVPD that has one.
    private func homeBasedPolicies(mvpd: MVPDView) async throws -> [ConsoleMVPDPage.HomeBased] {
        var rows: [ConsoleMVPDPage.HomeBased] = []
        for integration in mvpd.integrations {
            let policy = try await integrations.hbaPolicy(requestor: integration.requestor, mvpd: mvpd.id)
            guard !policy.isEmpty else { continue }
            rows.append(
                .init(
                    requestor: integration.requestor, profileTTLSeconds: policy.profileTTLSeconds.map { "\($0)" },
                    deniedResources: policy.deniedResources.isEmpty ? nil : policy.deniedResources.joined(separator: ", ")))
        }
        return rows
    }

    /// Sets what one integration of the MVPD does with home-based sign-ins, from the HBA form: an empty lifetime leaves
    /// it as it is (0 removes it); the resources, comma-separated, replace the list (with "none" it is emptied).
    private func setHomeBased(_ form: ConsoleForm, mvpd: String, actor: String) async throws -> String {
        guard let requestor = form["requestor"] else { throw ConsoleFailure(status: .badRequest, "Give the requestor of the integration.") }
        var change = IntegrationOperations.HBAChange()
        if let ttl = form["hbaProfileTTLSeconds"] {
            guard let seconds = Int64(ttl) else { throw ConsoleFailure(status: .badRequest, "The HBA lifetime is a number of seconds.") }
            change.profileTTLSeconds = seconds
        }
        if let resources = form["hbaDeniedResources"] {
            change.deniedResources = resources == "none" ? [] : resources.split(separator: ",").map(String.init)
        }
        let policy = try await integrations.setHBAPolicy(requestor: requestor, mvpd: mvpd, change, actor: actor)
        let lifetime = policy.profileTTLSeconds.map { "last \($0) s" } ?? "last as long as other sign-ins"
        let denied = policy.deniedResources.isEmpty ? "may play everything" : "are denied \(policy.deniedResources.joined(separator: ", "))"
        return "Home-based sign-ins to \(mvpd) for \(requestor) \(lifetime) and \(denied)."
    }

    /// The settings the edit form changes (a flag not checked is off; an empty metadata field leaves it unchanged).
    package static func update(from form: ConsoleForm) throws -> MVPDUpdate {
        var update = MVPDUpdate()
        update.displayName = form["name"]
        update.logoURL = form.fields["logoURL"].map { $0.trimmingCharacters(in: .whitespaces) }
        if let ttl = form["profileTTLSeconds"] {
            guard let seconds = Int64(ttl), seconds >= 60 else {
                throw ConsoleFailure(status: .badRequest, "The profile lifetime must be at least 60 seconds.")
            }
            update.profileTTLSeconds = seconds
        }
        update.requiresSafariViewController = form.checked("requiresSafariViewController")
        update.enablePlatformServices = form.checked("enablePlatformServices")
        update.displayInPlatformPicker = form.checked("displayInPlatformPicker")
        update.boardingStatus = form["boardingStatus"] ?? ""
        if let name = form["authorizationProtocol"] {
            guard let kind = MVPDAuthorizationProtocol(rawValue: name) else {
                throw ConsoleFailure(status: .badRequest, "Unknown authorization protocol \(name).")
            }
            update.authorizationProtocol = kind
        }
        update.authorizationURL = form["authorizationURL"]
        update.samlMetadataXML = form["metadataFile"]
        update.samlMetadataURL = form["metadataURL"]
        return update
    }

    /// The page of an MVPD.
    package static func mvpdPath(_ id: String) -> String {
        id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) ? "/console/mvpds/" + id : "/console/mvpds"
    }
}
