import EntitleCore
import EntitleModel
import Foundation

/// The catalog as code (`entitle admin catalog export|apply`, `GET /admin/api/catalog`, `POST /admin/api/catalog/apply`):
/// requestors, MVPDs with their options, integrations, SSO issuers and software statements as one document. Keys and
/// runtime state (profiles, clients, reports) are not part of it. Secrets are never written inline: a ``CatalogSecret``
/// is encoded as a reference to a file. The edge turns the document into YAML or JSON; this type is the model that export,
/// plan and apply share. Fields left out mean the default, and the export leaves defaults out, so that an exported
/// document, applied and exported again, is the same text.
package struct CatalogDocument: Codable, Sendable, Equatable {
    /// The format's version (1).
    package var version: Int
    package var requestors: [Requestor]
    package var mvpds: [MVPD]
    package var integrations: [Integration]
    package var ssoIssuers: [SSOIssuer]
    package var softwareStatements: [SoftwareStatement]

    /// The version this binary writes and reads.
    package static let currentVersion = 1

    package init(
        requestors: [Requestor] = [], mvpds: [MVPD] = [], integrations: [Integration] = [], ssoIssuers: [SSOIssuer] = [],
        softwareStatements: [SoftwareStatement] = []
    ) {
        version = Self.currentVersion
        (self.requestors, self.mvpds, self.integrations, self.ssoIssuers, self.softwareStatements) =
            (requestors, mvpds, integrations, ssoIssuers, softwareStatements)
    }

    enum CodingKeys: String, CodingKey {
        case version, requestors, mvpds, integrations, ssoIssuers, softwareStatements
    }

    /// Reads a document; every section may be left out (an empty list).
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        requestors = try container.decodeIfPresent([Requestor].self, forKey: .requestors) ?? []
        mvpds = try container.decodeIfPresent([MVPD].self, forKey: .mvpds) ?? []
        integrations = try container.decodeIfPresent([Integration].self, forKey: .integrations) ?? []
        ssoIssuers = try container.decodeIfPresent([SSOIssuer].self, forKey: .ssoIssuers) ?? []
        softwareStatements = try container.decodeIfPresent([SoftwareStatement].self, forKey: .softwareStatements) ?? []
    }

    /// A programmer (service provider) and its settings; its domains are also the browser origins its apps may call from.
    package struct Requestor: Codable, Sendable, Equatable {
        package var id: String
        package var name: String
        package var domains: [String]?
        package var maxResources: Int64?
        /// PEM certificate or public key for encrypted user metadata (not a secret).
        package var programmerCertificate: String?
        package var defaultProfileTTLSeconds: Int64?
        package var defaultAuthorizationTTLSeconds: Int64?
        package var defaultPreflightMaxResources: Int64?
        /// `rsa-sha256` (the default, left out), `ecdsa-p256-sha256` or `ed25519`.
        package var mediaTokenAlgorithm: String?
        package var disabled: Bool?

        package init(id: String, name: String) { (self.id, self.name) = (id, name) }
    }

    /// An MVPD: SAML 2.0, OAuth 2.0 or TempPass, with its authorization settings and options.
    package struct MVPD: Codable, Sendable, Equatable {
        package var id: String
        /// `saml`, `oauth2` or `temppass`.
        package var kind: String
        package var displayName: String
        package var logoURL: String?
        package var disabled: Bool?
        package var profileTTLSeconds: Int64?
        package var encryptedAttributes: [String]?
        package var requiresSafariViewController: Bool?
        package var enablePlatformServices: Bool?
        package var boardingStatus: String?
        package var platformMappingId: String?
        package var displayInPlatformPicker: Bool?
        /// User-metadata key → SAML attribute names or userinfo claims.
        package var attributeMapping: [String: [String]]?
        package var authorization: Authorization?
        package var saml: SAML?
        package var oauth2: OAuth2?
        package var tempPass: TempPass?
        /// Set on a proxy MVPD (Adobe's Proxy MVPD Web Service); its proxied MVPDs are pushed by the proxy, not listed here.
        package var proxy: Proxy?

        package init(id: String, kind: String, displayName: String) { (self.id, self.kind, self.displayName) = (id, kind, displayName) }
    }

    /// How the MVPD is asked for authorization decisions.
    package struct Authorization: Codable, Sendable, Equatable {
        /// `entitle-json` (the default), `xacml`, `rest` or `none`.
        package var `protocol`: String?
        package var url: String?
        /// The bearer key of the authorization API.
        package var key: CatalogSecret?
        /// `plain` (the default) or `soap`.
        package var xacmlBinding: String?
        package var signQueries: Bool?
        /// Without an authorization URL: authorize every authenticated subscriber.
        package var authorizeAll: Bool?
        /// How long the MVPD's answers are kept for every requestor, seconds (an integration may set its own).
        package var ttlSeconds: Int64?

        package init() {}
    }

    /// A SAML identity provider as its metadata described it.
    package struct SAML: Codable, Sendable, Equatable {
        package var entityID: String
        /// SingleSignOnService, HTTP-Redirect binding.
        package var ssoURL: String?
        /// SingleSignOnService, HTTP-POST binding.
        package var ssoPostURL: String?
        /// SingleLogoutService.
        package var sloURL: String?
        /// Signing certificates, PEM.
        package var certificates: [String]
        /// Where the metadata is refreshed from, when it came from a URL.
        package var metadataURL: String?
        package var allowRSASHA1: Bool?

        package init(entityID: String, certificates: [String]) { (self.entityID, self.certificates) = (entityID, certificates) }
    }

    /// An OAuth 2.0 MVPD's endpoints and Entitle's client there.
    package struct OAuth2: Codable, Sendable, Equatable {
        package var issuer: String?
        package var authorizeURL: String
        package var tokenURL: String
        package var userinfoURL: String
        package var logoutURL: String?
        package var clientID: String
        package var clientSecret: CatalogSecret
        package var scopes: [String]?
        /// `sub` (the default) or another userinfo claim.
        package var userIDClaim: String?
        /// `client_secret_basic` (the default) or `client_secret_post`.
        package var tokenAuthMethod: String?
        /// PKCE S256 (true by default).
        package var pkce: Bool?

        package init(authorizeURL: String, tokenURL: String, userinfoURL: String, clientID: String, clientSecret: CatalogSecret) {
            (self.authorizeURL, self.tokenURL, self.userinfoURL, self.clientID, self.clientSecret) =
                (authorizeURL, tokenURL, userinfoURL, clientID, clientSecret)
        }
    }

    /// A TempPass pseudo-MVPD's pass.
    package struct TempPass: Codable, Sendable, Equatable {
        package var minutes: Int64
        /// Promotional TempPass: distinct resources per identity.
        package var resourceLimit: Int64?

        package init(minutes: Int64, resourceLimit: Int64? = nil) { (self.minutes, self.resourceLimit) = (minutes, resourceLimit) }
    }

    /// A proxy MVPD's settings.
    package struct Proxy: Codable, Sendable, Equatable {
        package var listed: Bool
        package var allowedAddresses: [String]?

        package init(listed: Bool, allowedAddresses: [String]?) { (self.listed, self.allowedAddresses) = (listed, allowedAddresses) }
    }

    /// A requestor × MVPD integration and its settings.
    package struct Integration: Codable, Sendable, Equatable {
        package var requestor: String
        package var mvpd: String
        /// True by default.
        package var enabled: Bool?
        package var displayName: String?
        package var logoURL: String?
        package var profileTTLSeconds: Int64?
        package var authorizationTTLSeconds: Int64?
        package var preflightMaxResources: Int64?
        /// Preflight by the lineup in the MVPD's assertion, read from this attribute.
        package var preflightLineupAttribute: String?
        package var hba: HBA?

        package init(requestor: String, mvpd: String) { (self.requestor, self.mvpd) = (requestor, mvpd) }

        /// `REF/DemoCable`.
        package var id: String { requestor + "/" + mvpd }
    }

    /// What the integration does with home-based sign-ins.
    package struct HBA: Codable, Sendable, Equatable {
        package var profileTTLSeconds: Int64?
        package var deniedResources: [String]?

        package init(profileTTLSeconds: Int64? = nil, deniedResources: [String]? = nil) {
            (self.profileTTLSeconds, self.deniedResources) = (profileTTLSeconds, deniedResources)
        }
    }

    /// An SSO token issuer (Fire TV, Roku, a network's service tokens).
    package struct SSOIssuer: Codable, Sendable, Equatable {
        package var id: String
        /// `amazon`, `roku` or `service-token`.
        package var type: String
        package var issuer: String
        package var audience: String?
        /// PEM public keys or certificates (not secrets).
        package var publicKeys: [String]?
        package var jwksURL: String?
        package var requestors: [String]

        package init(id: String, type: String, issuer: String, requestors: [String]) {
            (self.id, self.type, self.issuer, self.requestors) = (id, type, issuer, requestors)
        }
    }

    /// An approved software statement, by its `software_id` (the JWT itself is signed by each environment's key and is
    /// read with `entitle admin software-statement list`).
    package struct SoftwareStatement: Codable, Sendable, Equatable {
        package var id: String
        package var requestor: String
        package var name: String
        package var redirectURIs: [String]
        package var serverToServer: Bool?
        package var revoked: Bool?
        /// The proxy MVPD whose web-service clients register with it.
        package var proxyMVPD: String?

        package init(id: String, requestor: String, name: String, redirectURIs: [String]) {
            (self.id, self.requestor, self.name, self.redirectURIs) = (id, requestor, name, redirectURIs)
        }
    }
}

/// A secret of the catalog (an MVPD's authorization key, an OAuth 2.0 client secret): written as a reference to a file,
/// `{file: secrets/DemoCable-authorization-key}`, never inline. The edge that reads a document fills ``value`` from the
/// file (the CLI, relative to the document's folder); a request to the admin API may give `{value: …}` instead. A secret
/// whose value is not at hand keeps the value the service has.
package struct CatalogSecret: Codable, Sendable, Equatable {
    /// The file that holds it, relative to the document's folder or absolute.
    package var file: String?
    /// The secret itself, in memory only: never encoded (except as a digest for comparison).
    package var value: String?

    package init(file: String?, value: String?) { (self.file, self.value) = (file, value) }

    enum CodingKeys: String, CodingKey { case file, value, digest }

    /// How a secret is encoded: as its file reference (the default), or as a digest of its value (to compare two
    /// documents without the values), set in the encoder's `userInfo`.
    package static let encodingKey = CodingUserInfoKey(rawValue: "entitle.catalog.secretEncoding")!

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        file = try container.decodeIfPresent(String.self, forKey: .file)
        value = try container.decodeIfPresent(String.self, forKey: .value)
        guard file != nil || value != nil else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "a secret is {file: PATH} (or, through the admin API, {value: …})"))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch encoder.userInfo[Self.encodingKey] as? String {
        case "digest": try container.encode(value.map { "sha256:" + Secrets.sha256Hex($0) } ?? "unknown", forKey: .digest)
        case "value": try container.encodeIfPresent(value, forKey: .value)
        default: try container.encodeIfPresent(file, forKey: .file)
        }
    }
}

extension CatalogDocument {
    /// Every secret of the document with its path, such as `mvpds[2].oauth2.clientSecret`, and its place.
    package var secretPaths: [(path: String, secret: CatalogSecret)] {
        var found: [(String, CatalogSecret)] = []
        for (index, mvpd) in mvpds.enumerated() {
            if let key = mvpd.authorization?.key { found.append(("mvpds[\(index)].authorization.key", key)) }
            if let secret = mvpd.oauth2?.clientSecret { found.append(("mvpds[\(index)].oauth2.clientSecret", secret)) }
        }
        return found
    }

    /// The document with each secret changed by `transform` (given its path).
    package func mappingSecrets(_ transform: (String, CatalogSecret) throws -> CatalogSecret) rethrows -> CatalogDocument {
        var copy = self
        for index in copy.mvpds.indices {
            if let key = copy.mvpds[index].authorization?.key {
                copy.mvpds[index].authorization?.key = try transform("mvpds[\(index)].authorization.key", key)
            }
            if let secret = copy.mvpds[index].oauth2?.clientSecret {
                copy.mvpds[index].oauth2?.clientSecret = try transform("mvpds[\(index)].oauth2.clientSecret", secret)
            }
        }
        return copy
    }
}
