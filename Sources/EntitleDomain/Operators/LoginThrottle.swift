import EntitleModel
import EntitleStorage
import Foundation
import Synchronization

/// Failed operator sign-ins per account and per client address in a sliding window; past the limit further attempts are
/// refused for the rest of the window without checking the password. Kept in memory: each instance counts its own.
package final class LoginThrottle: Sendable {
    /// Failures allowed per account within the window.
    package let perAccount: Int
    /// Failures allowed per client address within the window.
    package let perAddress: Int
    /// The window, milliseconds.
    package let windowMilliseconds: Int64
    private let failures = Mutex<[String: [Int64]]>([:])

    /// Creates a throttle: by default 5 failures per account and 20 per address in 15 minutes.
    package init(perAccount: Int = 5, perAddress: Int = 20, windowMilliseconds: Int64 = 15 * 60_000) {
        self.perAccount = perAccount
        self.perAddress = perAddress
        self.windowMilliseconds = windowMilliseconds
    }

    /// Seconds until another attempt is allowed for this account and address, or nil when one is allowed now.
    package func retryAfter(username: String, address: String?, now: Int64) -> Int? {
        failures.withLock { table in
            var wait: Int64 = 0
            for (key, limit) in keys(username: username, address: address) {
                let recent = (table[key] ?? []).filter { $0 > now - windowMilliseconds }
                table[key] = recent.isEmpty ? nil : recent
                if recent.count >= limit, let oldest = recent.first { wait = max(wait, oldest + windowMilliseconds - now) }
            }
            return wait > 0 ? Int((wait + 999) / 1000) : nil
        }
    }

    /// Counts a failed attempt.
    package func failed(username: String, address: String?, now: Int64) {
        failures.withLock { table in
            if table.count > 100_000 { table.removeAll() }  // a flood of names: forget rather than grow without bound
            for (key, _) in keys(username: username, address: address) { table[key, default: []].append(now) }
        }
    }

    /// Forgets the account's failures after a successful sign-in.
    package func succeeded(username: String) {
        _ = failures.withLock { $0.removeValue(forKey: "user|" + username.lowercased()) }
    }

    private func keys(username: String, address: String?) -> [(String, Int)] {
        var keys = [("user|" + username.lowercased(), perAccount)]
        if let address { keys.append(("addr|" + address, perAddress)) }
        return keys
    }
}
