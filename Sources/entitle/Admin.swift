import ArgumentParser
import EntitleCore
import EntitleDomain
import EntitleHost
import EntitleHTTP
import EntitleModel
import Foundation
import Logging
import SAML

/// `entitle admin`: software statements, clients, MVPDs and keys, working directly on the service's storage.
struct Admin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Administer the service's storage: software statements, clients, MVPDs, keys.",
        subcommands: [
            SoftwareStatement.self, Client.self, MVPD.self, Keys.self, Degradation.self, TempPass.self,
            Cache.self, AuthorizationTTL.self, LegacyKey.self, Requestor.self, Changes.self, Integration.self, Operator.self, Backup.self,
            Restore.self, Schema.self, Report.self, SSO.self, Privacy.self, Catalog.self,
        ]
    )

    /// Opens the service's storage without seeding anything. A data directory that holds no service, and any failure
    /// (an unknown id, a refused value), end the command with a plain message on standard error and exit status 1.
    static func withService<T>(_ options: AdminStorageOptions, _ body: (EntitleService) async throws -> T) async throws -> T {
        let storage = options.storage
        let effective = try AdminFailure.requireService(storage)
        var logger = Logger(label: "entitle.admin")
        logger.logLevel = .warning
        var configuration: HostConfiguration
        do { configuration = try storage.hostConfiguration() } catch { throw AdminFailure.exit("\(error)") }
        // The service's public URL (what it tells MVPDs and apps), not this process's defaults.
        configuration.publicBaseURL = effective.publicURL
        configuration.demo = false
        configuration.profileCacheBound = .zero
        let host: EntitleHost
        do { host = try await EntitleHost.prepare(configuration: configuration, logger: logger) } catch {
            throw AdminFailure.exit("cannot open the service's storage: \(error)")
        }
        do {
            let result: T
            if let username = options.actingOperator {
                let reach = try await host.service.operatorChanges.reach(username: username)
                result = try await OperatorReach.$current.withValue(reach) { try await body(host.service) }
            } else {
                result = try await body(host.service)
            }
            await host.shutdown()
            return result
        } catch let exit as ExitCode {
            await host.shutdown()
            throw exit
        } catch {
            await host.shutdown()
            throw AdminFailure.exit("\(error)")
        }
    }

    struct SoftwareStatement: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "software-statement", abstract: "Issue, list or revoke software statements.",
            subcommands: [Create.self, List.self, Revoke.self])

        struct Create: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Issue a signed software statement; prints the JWT.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as REF (not for a proxy's web-service client, --proxy-mvpd).") var requestor: String?
            @Option(help: "Application name.") var name: String
            @Option(
                name: .customLong("redirect-uri"),
                help: "Allowed redirect URI, at least one (repeat for several; the AccessEnabler SDK's default is adobepass://ios.app).")
            var redirectURIs: [String] = []
            @Flag(
                help: ArgumentHelp(
                    "For the network's backend calling REST API v2 for its devices (Adobe's server-to-server cookbook).",
                    discussion:
                        "Its clients' calls name each device's address in X-Forwarded-For (the first address), which the service then uses as the device's (MVPD calls, the request log); other clients' X-Forwarded-For counts only from a --trusted-proxy."
                ))
            var serverToServer = false
            @Option(
                help: ArgumentHelp(
                    "For a proxy MVPD's web-service client: its clients may read and push the proxied MVPDs of this proxy (Proxy MVPD Web Service).",
                    discussion:
                        "The proxy must have been marked with `mvpd add … --proxy`. Without --requestor (and --redirect-uri, which it does not need) the statement belongs to no requestor: its clients' access tokens open the Proxy MVPD Web Service only."
                ))
            var proxyMvpd: String?

            func validate() throws {
                if requestor == nil && proxyMvpd == nil {
                    throw ValidationError("Give --requestor (or --proxy-mvpd, for a proxy MVPD's web-service client).")
                }
                if requestor == nil && serverToServer { throw ValidationError("--server-to-server needs --requestor.") }
            }

            func run() async throws {
                let (id, jwt) = try await Admin.withService(admin) { service in
                    guard let requestor else {
                        return try await service.proxyMVPDs.issueSoftwareStatement(
                            proxy: proxyMvpd ?? "", name: name, redirectURIs: redirectURIs, actor: Admin.cliActor)
                    }
                    if let proxyMvpd { try await service.proxyMVPDs.requireProxy(proxyMvpd) }
                    let issued = try await service.applications.issueSoftwareStatement(
                        requestor: requestor, name: name, redirectURIs: redirectURIs, serverToServer: serverToServer, actor: Admin.cliActor)
                    if let proxyMvpd { try await service.proxyMVPDs.allowSoftwareStatement(issued.id, proxy: proxyMvpd, actor: Admin.cliActor) }
                    return issued
                }
                FileHandle.standardError.write(Data("software_id: \(id)\n".utf8))
                print(jwt)
            }
        }

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a software statement: its clients stop working.")
            @OptionGroup var admin: AdminStorageOptions
            @Argument(help: "The software_id.") var softwareID: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.applications.revokeSoftwareStatement(id: softwareID, actor: Admin.cliActor) }
                print("revoked \(softwareID)")
            }
        }
    }

    struct Client: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List or revoke registered clients.", subcommands: [List.self, Revoke.self])

        struct Revoke: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Revoke a client: its access tokens stop working.")
            @OptionGroup var admin: AdminStorageOptions
            @Argument(help: "The client_id.") var clientID: String

            func run() async throws {
                try await Admin.withService(admin) { try await $0.applications.revokeClient(id: clientID, actor: Admin.cliActor) }
                print("revoked \(clientID)")
            }
        }
    }

    struct MVPD: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add, change, disable, remove and list MVPDs.",
            subcommands: [Add.self, Update.self, Show.self, List.self, Disable.self, Enable.self, Remove.self, Refresh.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add or update an MVPD: SAML 2.0 from its IdP metadata XML, or OAuth 2.0 (--oauth2-issuer or --oauth2-…-url).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "MVPD id.") var id: String
            @Option(help: "Display name.") var name: String
            @Option(
                help: ArgumentHelp(
                    "IdP SAML metadata XML file, from the MVPD (its entity descriptor); not for an OAuth 2.0 MVPD.",
                    discussion: "For the DemoMVPD: curl -o idp-metadata.xml $ENTITLE_URL/demo-mvpd/DemoCable/saml/metadata"))
            var samlMetadata: String?
            @Option(help: "Logo URL.") var logoURL = ""
            @Option(help: "Authorization API URL.") var authorizationURL: String?
            @Option(help: "Authorization API bearer key (visible in ps: prefer --authorization-key-file).") var authorizationKey: String?
            @Option(help: "File holding the authorization API bearer key.") var authorizationKeyFile: String?
            @Option(help: "Requestor to integrate with (repeat for several).") var requestor: [String] = []
            @Option(help: "User-metadata attribute to deliver encrypted (repeat).") var encrypt: [String] = []
            @Option(
                name: .customLong("attribute"),
                help:
                    "KEY=SAML-ATTRIBUTE-NAME (or userinfo claim): read user metadata KEY from it (or KEY=NameID); repeat. PARENT.CHILD=NAME builds an object (maxRating.MPAA=MaxMovieRating). Common names are mapped by default."
            )
            var attributes: [String] = []
            @Flag(help: "Accept RSA-SHA1 signatures from this legacy IdP (insecure; logged as a warning).") var allowRsaSha1 = false
            @Flag(help: "Without --authorization-url: authorize every authenticated subscriber of this MVPD.") var authorizeAll = false
            @OptionGroup var authorizationProtocol: MVPDAuthorizationProtocolOptions
            @OptionGroup var oauth2: OAuth2MVPDOptions
            @Option(
                help:
                    "Preflight in one call (xacml or rest): preauthorize asks about at most N resources per call (for each --requestor's integration; 0 turns it off)."
            )
            var preflightMaxResources: Int?
            @OptionGroup var lineup: PreflightLineupOptions
            @OptionGroup var proxy: ProxyMVPDOptions

            func validate() throws {
                try proxy.validate(saml: samlMetadata != nil)
                if lineup.preflight != nil && requestor.isEmpty { throw ValidationError("--preflight is set per integration: give --requestor.") }
                if let limit = preflightMaxResources {
                    guard (0...1000).contains(limit) else { throw ValidationError("--preflight-max-resources is 0 to 1000.") }
                    if limit > 0 && authorizationProtocol.authorizationProtocol != .xacml && authorizationProtocol.authorizationProtocol != .rest {
                        throw ValidationError(
                            "--preflight-max-resources needs --authorization-protocol xacml or rest (several resources in one call).")
                    }
                    if requestor.isEmpty { throw ValidationError("--preflight-max-resources is set per integration: give --requestor.") }
                }
                _ = try SAMLAttributeMapping.parse(attributes)
                try oauth2.validate(samlMetadata: samlMetadata)
                if !oauth2.isRequested && samlMetadata == nil {
                    throw ValidationError("Give --saml-metadata (a SAML 2.0 MVPD) or --oauth2-issuer / --oauth2-…-url (an OAuth 2.0 MVPD).")
                }
                try authorizationProtocol.validate(authorizationURL: authorizationURL)
                if authorizationKey != nil && authorizationKeyFile != nil {
                    throw ValidationError("Give --authorization-key or --authorization-key-file, not both.")
                }
                if authorizeAll && authorizationURL != nil { throw ValidationError("--authorize-all and --authorization-url exclude each other.") }
            }

            /// The options common to both kinds of MVPD.
            func mvpdOptions() throws -> MVPDOptions {
                var key = authorizationKey
                if let authorizationKeyFile {
                    guard let text = try? String(contentsOfFile: authorizationKeyFile, encoding: .utf8) else {
                        throw ValidationError("Cannot read \(authorizationKeyFile).")
                    }
                    key = text.trimmingCharacters(in: .whitespacesAndNewlines)
                }
                var options = MVPDOptions(
                    displayName: name, logoURL: logoURL, authorizationURL: authorizationURL,
                    authorizationKey: key)
                options.encryptedAttributes = encrypt
                options.attributeMapping = try SAMLAttributeMapping.parse(attributes)
                options.allowRSASHA1 = allowRsaSha1
                options.authorizeAllAuthenticated = authorizeAll
                options.authorizationProtocol = authorizationProtocol.authorizationProtocol
                options.xacmlBinding = authorizationProtocol.xacmlBinding
                options.signAuthorizationQueries = authorizationProtocol.signAuthorizationQueries
                return options
            }

            func run() async throws {
                let options = try mvpdOptions()
                if oauth2.isRequested { return try await addOAuth2MVPD(options: options) }
                let samlMetadata = self.samlMetadata ?? ""
                let xml: String
                do { xml = try String(contentsOfFile: samlMetadata, encoding: .utf8) } catch {
                    throw AdminFailure.exit(
                        """
                        cannot read \(samlMetadata). It is the MVPD's SAML IdP metadata (XML); for the DemoMVPD download it with
                          curl -o \(samlMetadata) \(EnvironmentDefaults.serviceURL)/demo-mvpd/DemoCable/saml/metadata
                        """)
                }
                if allowRsaSha1 {
                    FileHandle.standardError.write(
                        Data("warning: RSA-SHA1 signatures accepted from \(id); SHA-1 is broken, ask the MVPD for RSA-SHA256.\n".utf8))
                }
                let metadata = try await Admin.withService(admin) { service in
                    let metadata = try await service.mvpds.importSAML(
                        id: id, metadataXML: xml, options: options, requestors: requestor, actor: Admin.cliActor)
                    try await proxy.apply(mvpd: id, service)
                    try await applyPreflight(service)
                    return metadata
                }
                print(
                    "MVPD \(id): entity \(metadata.entityID), SSO \(metadata.singleSignOnRedirectURL), \(metadata.signingCertificates.count) certificate(s)"
                )
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List MVPDs.")
            @OptionGroup var admin: AdminStorageOptions
            @Flag(help: "Print JSON (each MVPD as `mvpd show` prints it).") var json = false

            func run() async throws {
                let mvpds = try await Admin.withService(admin) { try await $0.mvpds.views() }
                if json { return print(try Admin.Requestor.json(mvpds)) }
                for mvpd in mvpds {
                    let proxy = mvpd.proxyMVPD.map { "\tproxied by \($0)" } ?? (mvpd.proxy.map { $0.listed ? "\tproxy (listed)" : "\tproxy" } ?? "")
                    print("\(mvpd.id)\t\(mvpd.kind)\t\(mvpd.name)\t\(mvpd.entityID ?? "-")\(mvpd.disabled ? "\tdisabled" : "")\(proxy)")
                }
            }
        }
    }

    struct Keys: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List and rotate the service's keys.", subcommands: [List.self, Rotate.self])

        /// What `/keys/media-token` publishes, for the operator after a rotation.
        static func publication(_ service: EntitleService) async throws -> String {
            let pem = try await service.keys.mediaTokenCertificatesPEM()
            let count = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
            return "/keys/media-token publishes \(count) certificate(s) now; video servers that cached the bundle "
                + "(Cache-Control: max-age=300) see this set within 5 minutes."
        }

        /// Refuses a media-token key that would sign before every verifier can have fetched it, unless forced
        /// (``KeyOperations/checkPromotion(purpose:promoteAfterSeconds:force:)``, as the admin API checks it).
        static func checkPromotion(_ promoteAfter: Int64?, force: Bool) throws {
            do { try KeyOperations.checkPromotion(purpose: .mediaToken, promoteAfterSeconds: promoteAfter, force: force) } catch is AdminError {
                throw ValidationError(
                    "--promote-after \(promoteAfter ?? 0) is shorter than the \(ServiceKeys.verifierCacheSeconds) s video servers cache /keys/media-token: "
                        + "media tokens signed with the new key would be refused until they fetch it again. Use at least "
                        + "\(ServiceKeys.verifierCacheSeconds), or add --force for an emergency rotation.")
            }
        }

        struct Rotate: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Rotate a key: the new one is published at once and signs after --promote-after; the previous one stays published for 24 hours.",
                discussion: "After a media-token rotation the command prints what /keys/media-token publishes.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "media-token, media-token-ecdsa-p256, media-token-ed25519, jwt, saml-sp or token-encryption.") var purpose = "media-token"
            @Option(help: "Seconds the new key is published before it signs (default: 900 for media-token, 60 otherwise).")
            var promoteAfter: Int64?
            @Flag(help: "Allow a media-token key to sign before video servers' cached key bundles (300 s) can know it (emergency rotation).")
            var force = false
            @Flag(help: "Print what the rotation would affect and change nothing.")
            var dryRun = false
            @Flag(help: "Rotate a jwt key, which invalidates every software statement shipped in apps (required for --purpose jwt).")
            var yes = false

            func run() async throws {
                let purpose = KeyPurpose(rawValue: self.purpose)
                guard KeyPurpose.known.contains(purpose) else { throw ValidationError("Unknown purpose \(purpose).") }
                if let promoteAfter, promoteAfter < 0 { throw ValidationError("--promote-after must not be negative.") }
                if purpose.isMediaToken { try Keys.checkPromotion(promoteAfter, force: force) }
                if dryRun || (purpose == .jwt && !yes) {
                    let notice = try await Admin.withService(admin) { try await Keys.rotationNotice(purpose: purpose, service: $0) }
                    print(notice)
                    if dryRun { return print("dry run: nothing was rotated") }
                    throw AdminFailure.exit("nothing was rotated: a jwt rotation breaks every shipped software statement; give --yes to rotate")
                }
                if purpose == .tokenEncryption {
                    if promoteAfter != nil {
                        throw ValidationError("--promote-after does not apply to token-encryption: the new key encrypts at once.")
                    }
                    return try await rotateTokenEncryption()
                }
                let (key, publication) = try await Admin.withService(admin) { service in
                    let notice = try await Keys.rotationNotice(purpose: purpose, service: service)
                    FileHandle.standardError.write(Data((notice + "\n").utf8))
                    let key = try await service.keyOperations.rotate(purpose: purpose, promoteAfterSeconds: promoteAfter, actor: Admin.cliActor)
                    return (key, purpose.isMediaToken ? try await Keys.publication(service) : nil)
                }
                let signsFrom = Date(timeIntervalSince1970: Double(key.signsFrom) / 1000).ISO8601Format()
                print("new \(purpose) key \(key.kid), published now, signing from \(signsFrom)")
                if let publication { print(publication) }
            }
        }
    }

    struct Degradation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Degraded access rules per (requestor, MVPD).",
            subcommands: [Set.self, List.self, Remove.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Apply authn-all, authz-all or authz-none for a time window.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as MYNET.") var requestor: String
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "authn-all, authz-all or authz-none.") var rule: String
            @Option(help: "Start, ISO 8601 (default: now).") var start: String?
            @Option(help: "End, ISO 8601 (default: start + --minutes).") var end: String?
            @Option(help: "Length in minutes when --end is absent.") var minutes = 60

            func run() async throws {
                let from = try start.map(Admin.parseDate) ?? Date()
                let to = try end.map(Admin.parseDate) ?? from.addingTimeInterval(Double(minutes) * 60)
                try await Admin.withService(admin) { service in
                    try await service.support.setDegradationRule(
                        requestor: requestor, mvpd: mvpd, rule: DegradationRule(rawValue: rule), start: from, end: to, actor: Admin.cliActor)
                }
                print("\(rule) for \(requestor)/\(mvpd) from \(from.ISO8601Format()) to \(to.ISO8601Format())")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List degradation rules.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id (default: all).") var requestor: String?

            func run() async throws {
                let rules = try await Admin.withService(admin) { try await $0.support.degradationRules(requestor: requestor) }
                for rule in rules {
                    let start = Date(timeIntervalSince1970: Double(rule.startsAt) / 1000).ISO8601Format()
                    let end = Date(timeIntervalSince1970: Double(rule.endsAt) / 1000).ISO8601Format()
                    print("\(rule.requestorId)\t\(rule.mvpdId)\t\(rule.rule)\t\(start)\t\(end)")
                }
            }
        }

        struct Remove: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Remove a degradation rule.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as MYNET.") var requestor: String
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "authn-all, authz-all or authz-none.") var rule: String

            func run() async throws {
                try await Admin.withService(admin) { service in
                    try await service.support.removeDegradationRule(
                        requestor: requestor, mvpd: mvpd, rule: DegradationRule(rawValue: rule), actor: Admin.cliActor)
                }
                print("removed \(rule) for \(requestor)/\(mvpd)")
            }
        }
    }

    struct TempPass: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "temppass", abstract: "TempPass administration.",
            subcommands: [Add.self, Reset.self])

        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add or update a TempPass MVPD; with --resources it is a Promotional TempPass (that many videos per identity).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "MVPD id.") var id: String
            @Option(help: "Display name.") var name: String
            @Option(help: "Logo URL.") var logoURL = ""
            @Option(help: "Length of a pass in minutes.") var minutes = 10
            @Option(help: "Distinct resources per identity (Promotional TempPass; the app sends withData, e.g. an e-mail address).")
            var resources: Int?
            @Option(help: "Requestor to offer it to (repeat for several; at least one).") var requestor: [String] = []

            func validate() throws {
                guard !requestor.isEmpty else { throw ValidationError("Give --requestor (the requestor to offer the TempPass to).") }
                guard minutes > 0 && minutes <= 525_600 else { throw ValidationError("--minutes must be 1…525600.") }
                if let resources, resources <= 0 { throw ValidationError("--resources must be positive.") }
                guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                    throw ValidationError("--id may hold letters, digits, _ and - only.")
                }
            }

            func run() async throws {
                try await Admin.withService(admin) { service in
                    try await service.mvpds.addTempPass(
                        id: id, displayName: name, logoURL: logoURL, minutes: minutes, resourceLimit: resources, requestors: requestor,
                        actor: Admin.cliActor)
                }
                let limit = resources.map { ", \($0) resources per identity" } ?? ""
                print("TempPass \(id): \(minutes) min\(limit), for \(requestor.joined(separator: ", "))")
            }
        }

        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Reset the TempPass of a device, of an identity, or of everyone.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id, such as MYNET.") var requestor: String
            @Option(help: "TempPass MVPD id.") var mvpd = "TempPass"
            @Option(
                help: ArgumentHelp(
                    "Device id: `entitle device status` prints it; an app reads it with getMetadata(METADATA_DEVICE_ID).",
                    discussion: "On the wire it is the Base64 after `fingerprint` in the AP-Device-Identifier header, decoded."))
            var device: String?
            @Option(help: "Identity JSON as the app sends it, e.g. {\"email\":\"<sha-256>\"} (Promotional TempPass).") var identity: String?
            @Flag(help: "Reset every pass of the MVPD.") var all = false

            func validate() throws {
                guard all != (device != nil || identity != nil) else { throw ValidationError("Give --device, --identity or --all.") }
            }

            func run() async throws {
                let count = try await Admin.withService(admin) { service in
                    try await service.support.resetTempPass(
                        requestor: requestor, mvpd: mvpd, device: device, identity: identity, actor: Admin.cliActor)
                }
                print("reset \(count) pass(es)")
            }
        }
    }

    /// Parses an ISO 8601 date.
    static func parseDate(_ text: String) throws -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else { throw ValidationError("Not an ISO 8601 date: \(text)") }
        return date
    }
}
