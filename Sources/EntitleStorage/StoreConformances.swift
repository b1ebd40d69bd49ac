import EntitleModel

/// The SQL stores as the store protocols of EntitleModel that the domain reads and writes through.
extension ProfileStore: ProfileStoring {}
extension TempPassStore: TempPassStoring {}
extension DegradationStore: DegradationStoring {}
extension MVPDOptionsStore: MVPDOptionsReading {}
extension RateLimitStore: RateLimitStoring {}
extension CatalogStore: CatalogReading {}
extension SessionStore: SessionStoring {}
extension CatalogStore: AuthorizationSettingsReading {
    /// The generation of the catalog cache.
    package var catalogGeneration: UInt64 { catalogCache.generation }
}
extension SessionStore: SignInSessionStoring {}
extension ClientStore: ClientStoring {}
extension LegacyStore: LegacyStoring {}
