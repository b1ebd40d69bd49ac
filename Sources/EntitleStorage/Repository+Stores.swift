import EntitleModel

extension Repository {
    /// Catalog reads: requestors, MVPDs, integrations, per-requestor authorization settings.
    package var catalogStore: CatalogStore { CatalogStore(base: base) }
    /// Per-MVPD protocol options (SAML, XACML, SSO POST, preflight).
    package var mvpdOptionsStore: MVPDOptionsStore { MVPDOptionsStore(base: base) }
    /// Degradation rules.
    package var degradationStore: DegradationStore { DegradationStore(base: base) }
    /// Authentication profiles.
    package var profileStore: ProfileStore { ProfileStore(base: base) }
    /// Authentication sessions, used assertions and logout requests.
    package var sessionStore: SessionStore { SessionStore(base: base) }
    /// Software statements and clients.
    package var clientStore: ClientStore { ClientStore(base: base) }
    /// Signing keys and shared secrets.
    package var keyStore: KeyStore { KeyStore(base: base) }
    /// Records of v1 and adobe-services.
    package var legacyStore: LegacyStore { LegacyStore(base: base) }
    /// Rate-limit buckets.
    package var rateLimitStore: RateLimitStore { RateLimitStore(base: base) }
    /// TempPass windows and promotional passes.
    package var tempPassStore: TempPassStore { TempPassStore(base: base) }
    /// Operator accounts and console sessions.
    package var operatorStore: OperatorStore { OperatorStore(base: base) }
    /// The change log.
    package var changeLogStore: ChangeLogStore { ChangeLogStore(base: base) }
    /// Report figures.
    package var reportStore: ReportStore { ReportStore(base: base) }
    /// Onboarding and administration writes and lists.
    package var catalogAdminStore: CatalogAdminStore { CatalogAdminStore(base: base) }
    /// OAuth 2.0 MVPD settings, pending sign-ins and grants.
    package var oauth2Store: OAuth2Store { OAuth2Store(base: base) }
}
