import EntitleCore
import EntitleModel
import EntitleStorage

/// Profile lookup, expiry and request limits, checked in one place for REST v2, REST v1 and adobe-services: a profile
/// is in force while `notAfter` is after the service's clock, a device's current profile is its most recent one in
/// force, a device without a profile whose sign-in the identity provider ended is told so (where the protocol has a
/// code for it), and one request names at most the requestor's `maxResources` resources. Each protocol says which error it
/// answers; the checks are the same.
package struct ProfileChecks: ClockReading {
    /// The profiles the checks read.
    package let profiles: any ProfileStoring
    package let clock: any ServiceClock

    /// The errors a protocol answers when the device has no profile, or only expired ones; made only when thrown (an
    /// error is not free: each has a fresh trace id).
    package struct Failures: Sendable {
        /// No profile at all.
        package let missing: @Sendable () -> EnhancedError
        /// Profiles, but none in force.
        package let expired: @Sendable () -> EnhancedError
        /// No profile, because the identity provider ended the sign-in (``Logout/endByIdentityProvider(_:reason:)``);
        /// nil: answered as `missing`.
        package let invalidated: (@Sendable () -> EnhancedError)?

        package init(
            missing: @escaping @autoclosure @Sendable () -> EnhancedError, expired: @escaping @autoclosure @Sendable () -> EnhancedError,
            invalidated: (@Sendable () -> EnhancedError)? = nil
        ) {
            (self.missing, self.expired, self.invalidated) = (missing, expired, invalidated)
        }

        /// `missing`, or `invalidated` when the device has an ended sign-in in force (with `mvpd`, when given).
        func whenMissing(_ checks: ProfileChecks, requestor: String, client: String, device: String, mvpd: String?) async throws -> EnhancedError {
            guard let invalidated,
                let ended = try await checks.endedSignIn(requestor: requestor, client: client, device: device, mvpd: mvpd)
            else { return missing() }
            var error = invalidated()
            if error.details == nil {
                error = error.with(details: "The TV provider (\(ended.mvpdId)) ended this sign-in. Sign in again.")
            }
            return error
        }
    }

    /// Whether a profile is in force now.
    package func isLive(_ profile: ProfileRecord) -> Bool { profile.notAfter > now }

    /// The device's profile with `mvpd`, in force; `failures` says what to throw otherwise.
    package func profile(requestor: String, client: String, device: String, mvpd: String, failures: Failures) async throws -> ProfileRecord {
        guard let profile = try await profiles.profile(requestor: requestor, client: client, device: device, mvpd: mvpd) else {
            throw APIError(try await failures.whenMissing(self, requestor: requestor, client: client, device: device, mvpd: mvpd))
        }
        guard isLive(profile) else { throw APIError(failures.expired()) }
        return profile
    }

    /// The device's most recent profile in force with any MVPD, nil when there is none.
    package func currentProfile(requestor: String, client: String, device: String) async throws -> ProfileRecord? {
        Self.current(try await profiles.profiles(requestor: requestor, client: client, device: device), now: now)
    }

    /// The device's most recent profile in force with any MVPD; `failures` says what to throw otherwise.
    package func currentProfile(requestor: String, client: String, device: String, failures: Failures) async throws -> ProfileRecord {
        let all = try await profiles.profiles(requestor: requestor, client: client, device: device)
        guard let profile = Self.current(all, now: now) else {
            guard all.isEmpty else { throw APIError(failures.expired()) }
            throw APIError(try await failures.whenMissing(self, requestor: requestor, client: client, device: device, mvpd: nil))
        }
        return profile
    }

    /// The device's most recent sign-in that its identity provider ended (with `mvpd`, when given), while the sign-in
    /// would still be in force; nil when there is none. Read only where the device has no profile.
    package func endedSignIn(requestor: String, client: String, device: String, mvpd: String?) async throws -> EndedSignInRecord? {
        try await profiles.endedSignIns(requestor: requestor, client: client, device: device, now: now)
            .filter { mvpd == nil || $0.mvpdId == mvpd }.max { $0.endedAt < $1.endedAt }
    }

    /// The profile that the sign-in of a registration code made, when it is still in force.
    package func profile(requestor: String, sessionCode: String) async throws -> ProfileRecord? {
        guard let profile = try await profiles.profile(requestor: requestor, sessionCode: sessionCode), isLive(profile) else { return nil }
        return profile
    }

    /// Refuses a request for more resources than the requestor allows at once (`too_many_resources`).
    package func checkResourceCount(_ count: Int, requestor: RequestorRecord) throws {
        guard count <= Int(requestor.maxResources) else {
            throw APIError(EnhancedError.tooManyResources.with(details: "At most \(requestor.maxResources) resources per request."))
        }
    }

    /// The most recent of `profiles` in force at `now`.
    package static func current(_ profiles: [ProfileRecord], now: Int64) -> ProfileRecord? {
        profiles.filter { $0.notAfter > now }.max { $0.notBefore < $1.notBefore }
    }

    /// Creates the value from each of its stored properties.
    package init(profiles: any ProfileStoring, clock: any ServiceClock) {
        self.profiles = profiles
        self.clock = clock
    }
}
