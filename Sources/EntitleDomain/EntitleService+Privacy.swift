import EntitleStorage

extension EntitleService {
    /// Privacy requests: export or erase what the service holds about one device or one MVPD user.
    package var privacy: PrivacyOperations {
        PrivacyOperations(
            repository: repository, changes: changes, authorizations: caches.authorizations,
            rateLimiter: caches.rateLimiter, reports: reports, clock: clock)
    }
}
