import EntitleModel
import EntitleStorage
import Foundation

/// Limits on operator sign-in attempts. Every attempt is recorded in the database before its password is checked, so
/// the limits hold for attempts sent at once and across instances, and survive restarts:
/// - one account from one client address: `perAccountAndAddress` attempts in the window; past that the account is
///   refused from that address only, so an attacker elsewhere cannot keep the operator out;
/// - one client address: `perAddress` attempts in the window, whatever the accounts.
///
/// A success forgets its attempt and the failures of its account from its address; ``unlock(username:)`` forgets every
/// failure of an account (`entitle admin operator unlock`, the console's operators page).
package struct SignInLimits: Sendable {
    /// Where the attempts are counted.
    package let store: OperatorStore
    /// Attempts allowed for one account from one address within the window.
    package var perAccountAndAddress = 5
    /// Attempts allowed from one address within the window.
    package var perAddress = 20
    /// The window, milliseconds (15 minutes).
    package var windowMilliseconds: Int64 = 15 * 60_000

    /// Whether an attempt may have its password checked.
    package enum Admission: Sendable, Equatable {
        /// Checked: the recorded attempt's id (for ``succeeded(_:username:address:)``).
        case admitted(attemptID: String)
        /// Refused without a check: seconds until the oldest counted attempt leaves the window.
        case refused(retryAfterSeconds: Int)
    }

    /// Creates the limits on `store` with the default numbers.
    package init(store: OperatorStore) {
        self.store = store
    }

    /// Records an attempt, then counts: the attempt is admitted only if neither of its scopes is past its limit.
    package func admit(username: String, address: String?, now: Int64) async throws -> Admission {
        let attemptID = Secrets.randomToken(bytes: 16)
        let scopes = Self.scopes(username: username, address: address)
        try await store.purgeSignInAttempts(before: now - windowMilliseconds)
        try await store.recordSignInAttempt(id: attemptID, scopes: scopes.map(\.scope), at: now)
        var wait: Int64 = 0
        for (scope, isAddress) in scopes {
            let counted = try await store.signInAttempts(scope: scope, since: now - windowMilliseconds)
            let limit = isAddress ? perAddress : perAccountAndAddress
            if counted.count > limit { wait = max(wait, (counted.oldest ?? now) + windowMilliseconds - now) }
        }
        return wait > 0 ? .refused(retryAfterSeconds: max(1, Int((wait + 999) / 1000))) : .admitted(attemptID: attemptID)
    }

    /// Forgets a successful attempt and the failures of its account from its address.
    package func succeeded(_ attemptID: String, username: String, address: String?) async throws {
        try await store.deleteSignInAttempt(id: attemptID)
        _ = try await store.deleteSignInAttempts(scopePrefix: Self.accountScope(username) + (address ?? "-"))
    }

    /// Forgets every counted attempt of an account, from every address; returns how many there were.
    package func unlock(username: String) async throws -> Int {
        try await store.deleteSignInAttempts(scopePrefix: Self.accountScope(username))
    }

    /// The counted attempts of an account within the window, from every address.
    package func failures(username: String, now: Int64) async throws -> Int {
        try await store.signInAttempts(scopePrefix: Self.accountScope(username), since: now - windowMilliseconds)
    }

    /// The scopes an attempt counts in: its account from its address, and its address.
    static func scopes(username: String, address: String?) -> [(scope: String, isAddress: Bool)] {
        var scopes = [(accountScope(username) + (address ?? "-"), false)]
        if let address { scopes.append(("address|" + address, true)) }
        return scopes
    }

    /// The prefix of an account's scopes (`account|name|`), the name lower-cased as sign-in compares it.
    static func accountScope(_ username: String) -> String { "account|" + username.lowercased() + "|" }
}
