import EntitleCore
import EntitleModel
import Foundation
import X509

/// The checks a catalog document passes before anything is applied, each problem with its path in the document: the
/// values each operation would refuse, references to requestors and MVPDs that neither the document nor the service
/// has, and changes the catalog cannot make.
enum CatalogValidation {
    /// Every problem of `document` (as written, so paths match the file) against the service's `current` catalog.
    static func issues(_ document: CatalogDocument, current: CatalogDocument, prune: Bool) -> [CatalogIssue] {
        var issues: [CatalogIssue] = []
        func check(_ path: String, _ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { issues.append(CatalogIssue(path, message())) }
        }
        check("version", document.version == CatalogDocument.currentVersion, "this service reads catalog version \(CatalogDocument.currentVersion)")
        duplicates(document.requestors.map(\.id), "requestors", &issues)
        duplicates(document.mvpds.map(\.id), "mvpds", &issues)
        duplicates(document.integrations.map(\.id), "integrations", &issues)
        duplicates(document.ssoIssuers.map(\.id), "ssoIssuers", &issues)
        duplicates(document.softwareStatements.map(\.id), "softwareStatements", &issues)

        let kept = { (ids: [String]) in prune ? [] : Set(ids) }
        let requestorIDs = Set(document.requestors.map(\.id)).union(kept(current.requestors.map(\.id)))
        var mvpdsByID = Dictionary(prune ? [] : current.mvpds.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for mvpd in document.mvpds { mvpdsByID[mvpd.id] = mvpd }

        for (index, requestor) in document.requestors.enumerated() {
            let path = "requestors[\(index)]"
            let record = RequestorRecord(
                id: requestor.id, name: requestor.name, domains: requestor.domains ?? [], maxResources: requestor.maxResources ?? 5,
                metadataCertificatePem: requestor.programmerCertificate, defaultProfileTtlSeconds: requestor.defaultProfileTTLSeconds,
                defaultAuthzTtlSeconds: requestor.defaultAuthorizationTTLSeconds, defaultPreflightMaxResources: requestor.defaultPreflightMaxResources
            )
            do { try RequestorOperations.check(record) } catch { issues.append(CatalogIssue(path, "\(error)")) }
            if let algorithm = requestor.mediaTokenAlgorithm {
                check(
                    path + ".mediaTokenAlgorithm", MediaTokenAlgorithm.all.map(\.rawValue).contains(algorithm),
                    "use \(MediaTokenAlgorithm.all.map(\.rawValue).joined(separator: ", "))")
            }
        }
        for (index, mvpd) in document.mvpds.enumerated() { mvpdIssues(mvpd, path: "mvpds[\(index)]", &issues) }
        for (index, integration) in document.integrations.enumerated() {
            let path = "integrations[\(index)]"
            check(path + ".requestor", requestorIDs.contains(integration.requestor), unknownReference("requestor", integration.requestor, prune))
            let mvpd = mvpdsByID[integration.mvpd]
            check(path + ".mvpd", mvpd != nil, unknownReference("MVPD", integration.mvpd, prune))
            if let ttl = integration.profileTTLSeconds {
                check(path + ".profileTTLSeconds", ttl == 0 || RequestorOperations.profileLifetimeRange.contains(ttl), "60 seconds to 400 days")
            }
            if let ttl = integration.authorizationTTLSeconds {
                check(path + ".authorizationTTLSeconds", (0...IntegrationOperations.maxAuthorizationTTLSeconds).contains(ttl), "0 to 604800 seconds")
            }
            if let limit = integration.preflightMaxResources, limit > 0 {
                check(path + ".preflightMaxResources", limit <= 1000, "0 to 1000 resources")
                let kind = mvpd?.authorization?.protocol ?? MVPDAuthorizationProtocol.entitleJSON.rawValue
                check(
                    path + ".preflightMaxResources", ["xacml", "rest"].contains(kind), "preflight in one call needs the MVPD's xacml or rest protocol"
                )
            }
            if let attribute = integration.preflightLineupAttribute {
                do { try IntegrationOperations.checkLineupAttribute(attribute) } catch {
                    issues.append(CatalogIssue(path + ".preflightLineupAttribute", "\(error)"))
                }
                check(path + ".preflightLineupAttribute", mvpd == nil || mvpd?.kind == "saml", "preflight by lineup needs a SAML 2.0 MVPD")
            }
            if let ttl = integration.hba?.profileTTLSeconds {
                check(path + ".hba.profileTTLSeconds", ttl == 0 || RequestorOperations.profileLifetimeRange.contains(ttl), "60 seconds to 400 days")
            }
            check(path + ".hba.deniedResources", (integration.hba?.deniedResources?.count ?? 0) <= 1000, "at most 1000 resources")
        }
        for (index, issuer) in document.ssoIssuers.enumerated() {
            let path = "ssoIssuers[\(index)]"
            check(path + ".type", SSOIssuerType.known.contains(SSOIssuerType(rawValue: issuer.type)), "use amazon, roku or service-token")
            check(path + ".issuer", !issuer.issuer.isEmpty, "the iss claim of the tokens")
            check(path, !(issuer.publicKeys ?? []).isEmpty || issuer.jwksURL != nil, "give publicKeys or jwksURL")
            for (number, pem) in (issuer.publicKeys ?? []).enumerated() {
                check(
                    path + ".publicKeys[\(number)]", (try? SSOVerificationKey.keys(pem: pem)) != nil,
                    "not a PEM public key or certificate (RSA 2048+ or EC P-256)")
            }
            for (number, requestor) in issuer.requestors.enumerated() {
                check(path + ".requestors[\(number)]", requestorIDs.contains(requestor), unknownReference("requestor", requestor, prune))
            }
        }
        let currentStatements = Dictionary(current.softwareStatements.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for (index, statement) in document.softwareStatements.enumerated() {
            let path = "softwareStatements[\(index)]"
            // A proxy's web-service statement may belong to no requestor (empty), and needs no redirect URI.
            let proxyOnly = statement.proxyMVPD != nil && statement.requestor.isEmpty
            check(
                path + ".requestor", proxyOnly || requestorIDs.contains(statement.requestor),
                unknownReference("requestor", statement.requestor, prune))
            check(path + ".name", !statement.name.trimmingCharacters(in: .whitespaces).isEmpty && statement.name.count <= 200, "1-200 characters")
            check(
                path + ".redirectURIs", proxyOnly || !statement.redirectURIs.isEmpty,
                "at least one redirect URI (the AccessEnabler SDK's default is adobepass://ios.app)")
            for (number, uri) in statement.redirectURIs.enumerated() {
                check(
                    path + ".redirectURIs[\(number)]", RedirectURIPolicy.isAcceptableRegistration(uri),
                    "not an absolute http(s) URL or an app's custom-scheme URI")
            }
            if let proxy = statement.proxyMVPD {
                check(path + ".proxyMVPD", mvpdsByID[proxy]?.proxy != nil, "\(proxy) is not a proxy MVPD in the document or the service")
            }
            if let before = currentStatements[statement.id]?.normalized() {
                let after = statement.normalized()
                check(
                    path,
                    (before.requestor, before.name, before.redirectURIs, before.serverToServer) == (
                        after.requestor, after.name, after.redirectURIs, after.serverToServer
                    ),
                    "software statement \(statement.id) exists with other settings; a statement cannot be changed (issue a new one with a new id)")
                check(path + ".revoked", before.revoked != true || after.revoked == true, "a revoked software statement cannot be restored")
                check(
                    path + ".proxyMVPD", before.proxyMVPD == nil || before.proxyMVPD == after.proxyMVPD, "a statement's proxy MVPD cannot be changed")
            }
        }
        return issues
    }

    /// One MVPD's settings.
    static func mvpdIssues(_ mvpd: CatalogDocument.MVPD, path: String, _ issues: inout [CatalogIssue]) {
        func check(_ field: String, _ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { issues.append(CatalogIssue(field.isEmpty ? path : path + "." + field, message())) }
        }
        func url(_ field: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            check(
                field, URL(string: value)?.scheme.map { ["https", "http"].contains($0) } == true && URL(string: value)?.host != nil, "an http(s) URL")
        }
        do { try AdminCatalog.checkMVPDID(mvpd.id) } catch { issues.append(CatalogIssue(path + ".id", "\(error)")) }
        check("kind", ["saml", "oauth2", "temppass"].contains(mvpd.kind), "use saml, oauth2 or temppass")
        check("displayName", !mvpd.displayName.trimmingCharacters(in: .whitespaces).isEmpty, "must not be empty")
        url("logoURL", mvpd.logoURL)
        if let ttl = mvpd.profileTTLSeconds {
            check("profileTTLSeconds", RequestorOperations.profileLifetimeRange.contains(ttl), "60 seconds to 400 days")
        }
        if let status = mvpd.boardingStatus {
            check("boardingStatus", ["SUPPORTED", "PICKER", "NOT_SUPPORTED", ""].contains(status), "use SUPPORTED, PICKER or NOT_SUPPORTED")
        }
        check(
            "saml", (mvpd.kind == "saml") == (mvpd.saml != nil),
            mvpd.kind == "saml" ? "a SAML MVPD needs its saml settings" : "only a SAML MVPD has saml settings")
        check(
            "oauth2", (mvpd.kind == "oauth2") == (mvpd.oauth2 != nil),
            mvpd.kind == "oauth2" ? "an OAuth 2.0 MVPD needs its oauth2 settings" : "only an OAuth 2.0 MVPD has oauth2 settings")
        check(
            "tempPass", (mvpd.kind == "temppass") == (mvpd.tempPass != nil),
            mvpd.kind == "temppass" ? "a TempPass MVPD needs tempPass.minutes" : "only a TempPass MVPD has tempPass settings")
        if let authorization = mvpd.authorization {
            let kind = MVPDAuthorizationProtocol(rawValue: authorization.protocol ?? MVPDAuthorizationProtocol.entitleJSON.rawValue)
            check("authorization.protocol", kind != nil, "use entitle-json, xacml, rest or none")
            url("authorization.url", authorization.url)
            let hasURL = !(authorization.url ?? "").isEmpty
            if kind == .xacml || kind == .rest { check("authorization.url", hasURL, "the \(kind!.rawValue) protocol needs an authorization URL") }
            if kind == .noCall { check("authorization.url", !hasURL, "the protocol none and an authorization URL exclude each other") }
            check(
                "authorization.authorizeAll", authorization.authorizeAll != true || !hasURL,
                "authorizeAll and an authorization URL exclude each other")
            let binding = XACMLBinding(rawValue: authorization.xacmlBinding ?? XACMLBinding.plain.rawValue)
            check("authorization.xacmlBinding", binding != nil, "use plain or soap")
            check("authorization.signQueries", authorization.signQueries != true || binding == .soap, "signing queries needs xacmlBinding soap")
            if let ttl = authorization.ttlSeconds {
                check("authorization.ttlSeconds", (0...IntegrationOperations.maxAuthorizationTTLSeconds).contains(ttl), "0 to 604800 seconds")
            }
        }
        if let saml = mvpd.saml {
            check("saml.entityID", !saml.entityID.isEmpty, "must not be empty")
            check("saml.ssoURL", !(saml.ssoURL ?? "").isEmpty, "the IdP's SingleSignOnService (HTTP-Redirect) URL is required")
            url("saml.ssoURL", saml.ssoURL)
            url("saml.ssoPostURL", saml.ssoPostURL)
            url("saml.sloURL", saml.sloURL)
            url("saml.metadataURL", saml.metadataURL)
            check("saml.certificates", !saml.certificates.isEmpty, "at least one signing certificate (PEM)")
            for (number, pem) in saml.certificates.enumerated() {
                check("saml.certificates[\(number)]", (try? Certificate(pemEncoded: pem)) != nil, "not a PEM certificate")
            }
        }
        if let oauth2 = mvpd.oauth2 {
            for (field, value) in [("authorizeURL", oauth2.authorizeURL), ("tokenURL", oauth2.tokenURL), ("userinfoURL", oauth2.userinfoURL)]
                + (oauth2.logoutURL.map { [("logoutURL", $0)] } ?? [])
            {
                do { try OAuth2MVPDOperations.checkEndpoint(value, name: "the endpoint") } catch {
                    issues.append(CatalogIssue(path + ".oauth2." + field, "\(error)"))
                }
            }
            check("oauth2.clientID", !oauth2.clientID.isEmpty, "must not be empty")
            if let method = oauth2.tokenAuthMethod {
                check(
                    "oauth2.tokenAuthMethod", ["client_secret_basic", "client_secret_post"].contains(method),
                    "client_secret_basic or client_secret_post")
            }
        }
        if let pass = mvpd.tempPass {
            check("tempPass.minutes", (1...(366 * 24 * 60)).contains(pass.minutes), "1 minute to a year")
            if let limit = pass.resourceLimit { check("tempPass.resourceLimit", (1...1000).contains(limit), "1 to 1000 resources") }
        }
        check("proxy", mvpd.proxy == nil || mvpd.kind == "saml", "only a SAML MVPD can be a proxy")
    }

    /// Ids named twice in one list.
    static func duplicates(_ ids: [String], _ list: String, _ issues: inout [CatalogIssue]) {
        var seen = Set<String>()
        for (index, id) in ids.enumerated() where !seen.insert(id).inserted {
            issues.append(CatalogIssue("\(list)[\(index)]", "\(id) is named twice"))
        }
    }

    /// The message for a reference to something neither the document nor the service has.
    static func unknownReference(_ kind: String, _ id: String, _ prune: Bool) -> String {
        prune
            ? "\(kind) \(id) is not in the document (with --prune, everything referenced must be)" : "no \(kind) \(id) in the document or the service"
    }
}
