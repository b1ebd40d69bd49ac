/// The profiles the request path reads and writes: ``ProfileStore`` on SQL, ``InMemoryProfileStore`` in unit tests.
package protocol ProfileStoring: Sendable {
    /// The profiles of a device for a client application and requestor, ordered by MVPD.
    func profiles(requestor: String, client: String, device: String) async throws -> [ProfileRecord]
    /// The profile of a device at one MVPD.
    func profile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord?
    /// The profile created by the session with `sessionCode`.
    func profile(requestor: String, sessionCode: String) async throws -> ProfileRecord?
    /// Creates or replaces the profile of (requestor, client, device, MVPD).
    func upsertProfile(_ p: ProfileRecord) async throws
    /// Replaces the user metadata of a profile, unless a newer sign-in replaced the profile meanwhile.
    func updateProfileAttributes(_ p: ProfileRecord, attributes: String) async throws
    /// Forgets the profile of (requestor, client, device, MVPD) and returns it.
    func deleteProfile(requestor: String, client: String, device: String, mvpd: String) async throws -> ProfileRecord?
    /// Records a sign-in the identity provider ended (its profile already deleted); replaces an older record of the same key.
    func recordEndedSignIn(_ e: EndedSignInRecord) async throws
    /// The device's ended sign-ins that have not expired at `now` (ms), ordered by MVPD. ``upsertProfile(_:)`` forgets
    /// the record of the key it writes: a new sign-in is not "invalidated".
    func endedSignIns(requestor: String, client: String, device: String, now: Int64) async throws -> [EndedSignInRecord]
}
