import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

extension Admin.MVPD {
    /// The MVPD settings `mvpd update` changes; each absent option leaves its setting as it is.
    struct Changes: ParsableArguments {
        @Option(help: "Display name.") var name: String?
        @Option(help: "Logo URL (empty: none).") var logoURL: String?
        @Option(help: "New SAML IdP metadata XML file (the MVPD's, after a certificate or endpoint change).") var samlMetadata: String?
        @Option(help: "URL of the MVPD's SAML metadata: fetched now and by every `mvpd refresh`.") var samlMetadataURL: String?
        @Option(help: "Whether the login page needs SFSafariViewController (true or false).") var requiresSafariViewController: Bool?
        @Option(help: "Apple single sign-on (enablePlatformServices), true or false.") var platformServices: Bool?
        @Option(help: "Apple SSO boarding status: SUPPORTED, PICKER or NOT_SUPPORTED (empty: none).") var boardingStatus: String?
        @Option(help: "Whether shown in Apple's provider picker (true or false).") var displayInPicker: Bool?
        @Option(help: "Profile (authentication) lifetime in seconds.") var profileTTL: Int64?
        @Option(help: "Authorization API URL (empty: none).") var authorizationURL: String?
        @Option(help: "File holding the authorization API bearer key (an empty file: none).") var authorizationKeyFile: String?
        @OptionGroup var authorization: MVPDAuthorizationProtocolOptions

        func validate() throws {
            if authorization.signAuthorizationQueries == true && authorization.xacmlBinding == .plain {
                throw ValidationError("--sign-authorization-queries needs --xacml-binding soap (the signature is in the SOAP query).")
            }
        }

        func update() throws -> MVPDUpdate {
            var update = MVPDUpdate()
            update.displayName = name
            update.logoURL = logoURL
            update.requiresSafariViewController = requiresSafariViewController
            update.enablePlatformServices = platformServices
            update.boardingStatus = boardingStatus
            update.displayInPlatformPicker = displayInPicker
            update.profileTTLSeconds = profileTTL
            update.samlMetadataURL = samlMetadataURL
            update.authorizationURL = authorizationURL
            if let authorizationKeyFile {
                guard let text = try? String(contentsOfFile: authorizationKeyFile, encoding: .utf8) else {
                    throw AdminFailure.exit("cannot read \(authorizationKeyFile)")
                }
                update.authorizationKey = text.trimmingCharacters(in: .whitespacesAndNewlines)
            }
            update.authorizationProtocol = authorization.authorizationProtocol
            update.xacmlBinding = authorization.xacmlBinding
            update.signAuthorizationQueries = authorization.signAuthorizationQueries
            if let samlMetadata {
                guard let xml = try? String(contentsOfFile: samlMetadata, encoding: .utf8) else {
                    throw AdminFailure.exit("cannot read \(samlMetadata)")
                }
                update.samlMetadataXML = xml
            }
            guard update != MVPDUpdate() else { throw ValidationError("Give at least one setting to change (see --help).") }
            return update
        }
    }

    /// `entitle admin mvpd update`.
    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change an MVPD's name, logo, flags, profile lifetime, SAML metadata or how it is asked for authorization.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "MVPD id.") var id: String
        @OptionGroup var changes: Changes

        func run() async throws {
            let update = try changes.update()
            try await Admin.withService(admin) { try await $0.mvpds.update(id: id, update, actor: Admin.cliActor) }
            print("MVPD \(id) updated")
        }
    }

    /// `entitle admin mvpd refresh`.
    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fetch again the SAML metadata of MVPDs set up with --saml-metadata-url and apply what changed (certificates, endpoints).",
            discussion: "Run it daily (a cron job or systemd timer); each change lands in the changes log. Exit 1 when a fetch failed.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "Only this MVPD (default: every MVPD with a metadata URL).") var id: String?

        func run() async throws {
            let (changed, failures) = try await Admin.withService(admin) { try await $0.mvpds.refreshMetadata(only: id, actor: Admin.cliActor) }
            for mvpd in changed { print("\(mvpd): metadata changed and applied") }
            for (mvpd, failure) in failures.sorted(by: { $0.key < $1.key }) {
                FileHandle.standardError.write(Data("entitle admin: \(mvpd): \(failure)\n".utf8))
            }
            if changed.isEmpty && failures.isEmpty { print("no metadata changed") }
            if !failures.isEmpty { throw ExitCode(1) }
        }
    }

    /// `entitle admin mvpd show`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print one MVPD as JSON: its settings (never its keys) and integrations.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "MVPD id.") var id: String

        func run() async throws {
            print(try Admin.Requestor.json(try await Admin.withService(admin) { try await $0.mvpds.view(id: id) }))
        }
    }

    /// `entitle admin mvpd disable`.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Disable an MVPD for every requestor (no listing, sign-in or authorization within the catalog bound); integrations keep their state.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "MVPD id.") var id: String

        func run() async throws {
            try await Admin.withService(admin) { try await $0.mvpds.setDisabled(id: id, true, actor: Admin.cliActor) }
            print("MVPD \(id) disabled")
        }
    }

    /// `entitle admin mvpd enable`.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Enable a disabled MVPD again.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "MVPD id.") var id: String

        func run() async throws {
            try await Admin.withService(admin) { try await $0.mvpds.setDisabled(id: id, false, actor: Admin.cliActor) }
            print("MVPD \(id) enabled")
        }
    }

    /// `entitle admin mvpd remove`.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a disabled MVPD with its integrations and settings.")
        @OptionGroup var admin: AdminStorageOptions
        @Option(help: "MVPD id.") var id: String

        func run() async throws {
            try await Admin.withService(admin) { try await $0.mvpds.remove(id: id, actor: Admin.cliActor) }
            print("MVPD \(id) removed")
        }
    }
}

extension Admin {
    /// `entitle admin integration`: one requestor × MVPD integration on or off.
    struct Integration: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enable, disable, set or list the integrations of requestors with MVPDs.",
            subcommands: [Enable.self, Disable.self, Set.self, List.self])

        struct Set: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Show an MVPD to one requestor's apps with another name or logo, or keep its sign-ins for another time.",
                discussion: "An empty --display-name or --logo-url, or --profile-ttl 0, goes back to the MVPD's own setting.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id.") var requestor: String
            @Option(help: "MVPD id.") var mvpd: String
            @Option(help: "Display name for this requestor.") var displayName: String?
            @Option(help: "Logo URL for this requestor.") var logoURL: String?
            @Option(help: "Profile (authentication) lifetime for this requestor, seconds.") var profileTTL: Int64?
            @Option(help: "Preflight in one call (xacml or rest MVPD): at most N resources per MVPD call; 0 turns it off.")
            var preflightMaxResources: Int64?
            @OptionGroup var lineup: PreflightLineupOptions
            @OptionGroup var hba: HBAOptions

            func validate() throws {
                guard
                    displayName != nil || logoURL != nil || profileTTL != nil || preflightMaxResources != nil || lineup.preflight != nil
                        || hba.isGiven
                else {
                    throw ValidationError(
                        "Give --display-name, --logo-url, --profile-ttl, --preflight-max-resources, --preflight or an --hba- option.")
                }
            }

            func run() async throws {
                try await Admin.withService(admin) {
                    if displayName != nil || logoURL != nil || profileTTL != nil {
                        try await $0.integrations.setSettings(
                            requestor: requestor, mvpd: mvpd, displayName: displayName, logoURL: logoURL, profileTTLSeconds: profileTTL,
                            actor: Admin.cliActor)
                    }
                    if let preflightMaxResources {
                        try await $0.integrations.setPreflight(
                            requestor: requestor, mvpd: mvpd, maxResources: preflightMaxResources, actor: Admin.cliActor)
                    }
                    try await lineup.apply($0, requestor: requestor, mvpd: mvpd)
                    try await hba.apply($0, requestor: requestor, mvpd: mvpd)
                }
                print("\(requestor)/\(mvpd) updated")
            }
        }

        struct Enable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Offer an MVPD to a requestor's apps.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id.") var requestor: String
            @Option(help: "MVPD id.") var mvpd: String

            func run() async throws {
                try await Admin.withService(admin) {
                    try await $0.integrations.setEnabled(requestor: requestor, mvpd: mvpd, enabled: true, actor: Admin.cliActor)
                }
                print("\(requestor)/\(mvpd) enabled")
            }
        }

        struct Disable: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Stop offering an MVPD to a requestor's apps: sign-ins and authorizations are refused within the catalog bound.")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Requestor id.") var requestor: String
            @Option(help: "MVPD id.") var mvpd: String

            func run() async throws {
                try await Admin.withService(admin) {
                    try await $0.integrations.setEnabled(requestor: requestor, mvpd: mvpd, enabled: false, actor: Admin.cliActor)
                }
                print("\(requestor)/\(mvpd) disabled")
            }
        }

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List integrations (requestor, MVPD, enabled or disabled).")
            @OptionGroup var admin: AdminStorageOptions
            @Option(help: "Only this requestor's.") var requestor: String?
            @Option(help: "Only this MVPD's.") var mvpd: String?
            @Flag(help: "Print JSON.") var json = false

            func run() async throws {
                let views = try await Admin.withService(admin) { try await $0.integrations.views(requestor: requestor, mvpd: mvpd) }
                if json { return print(try Admin.Requestor.json(views)) }
                for view in views {
                    let settings = [
                        view.displayName.map { "name=\($0)" }, view.logoURL.map { "logo=\($0)" }, view.profileTTLSeconds.map { "profile-ttl=\($0)" },
                        view.hbaProfileTTLSeconds.map { "hba-profile-ttl=\($0)" },
                        view.hbaDeniedResources.map { "hba-denied=\($0.joined(separator: ","))" },
                    ]
                    .compactMap { $0 }
                    print(([view.requestor, view.mvpd, view.enabled ? "enabled" : "disabled"] + settings).joined(separator: "\t"))
                }
            }
        }
    }
}
