/// The TempPass windows and promotional passes ``TempPassService`` and ``DecisionService`` use: ``TempPassStore`` on
/// SQL, ``InMemoryTempPassStore`` in unit tests.
package protocol TempPassStoring: Sendable {
    /// The TempPass of a device: its start and end (ms), created now if there is none.
    func tempPass(requestor: String, mvpd: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws -> (
        startedAt: Int64, expiresAt: Int64
    )
    /// Deletes the TempPass of one device, or of all devices when `deviceKey` is nil; returns how many were reset.
    func resetTempPass(requestor: String, mvpd: String, deviceKey: String?) async throws -> Int
    /// The promotional pass of an identity or a device, created when there is none.
    func promoPass(requestor: String, mvpd: String, identityKey: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws
        -> PromoPassRecord
    /// Resources already played with a pass, in the order they were first played.
    func promoResources(passKey: String) async throws -> [String]
    /// Uses a resource with a pass: true when it was used before or a slot was free.
    func usePromoResource(passKey: String, resource: String, limit: Int64, now: Int64) async throws -> Bool
    /// Deletes promotional passes by device key, identity key, or all of an MVPD; returns how many.
    func resetPromoPasses(requestor: String, mvpd: String, deviceKey: String?, identityKey: String?) async throws -> Int
}
