import EntitleModel

extension Repository {
    /// Catalog reads: requestors, MVPDs, integrations, per-requestor authorization settings.
    package var catalog: CatalogStore { CatalogStore(base: base) }
    /// Per-MVPD protocol options (SAML, XACML, SSO POST, preflight).
    package var mvpdOptions: MVPDOptionsStore { MVPDOptionsStore(base: base) }
    /// Degradation rules.
    package var degradation: DegradationStore { DegradationStore(base: base) }
    /// Authentication profiles.
    package var profiles: ProfileStore { ProfileStore(base: base) }
    /// Authentication sessions, used assertions and logout requests.
    package var sessions: SessionStore { SessionStore(base: base) }
    /// Software statements and clients.
    package var clients: ClientStore { ClientStore(base: base) }
    /// Signing keys and shared secrets.
    package var keys: KeyStore { KeyStore(base: base) }
    /// Records of v1 and adobe-services.
    package var legacy: LegacyStore { LegacyStore(base: base) }
    /// Rate-limit buckets.
    package var rateLimits: RateLimitStore { RateLimitStore(base: base) }
    /// TempPass windows and promotional passes.
    package var tempPasses: TempPassStore { TempPassStore(base: base) }
    /// Operator accounts and console sessions.
    package var operators: OperatorStore { OperatorStore(base: base) }
    /// The change log.
    package var changeLog: ChangeLogStore { ChangeLogStore(base: base) }
    /// Report figures.
    package var reports: ReportStore { ReportStore(base: base) }
    /// Onboarding and administration writes and lists.
    package var onboarding: OnboardingStore { OnboardingStore(base: base) }
    /// OAuth 2.0 MVPD settings, pending sign-ins and grants.
    package var oauth2: OAuth2Store { OAuth2Store(base: base) }
}
