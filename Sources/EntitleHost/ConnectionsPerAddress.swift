import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import Synchronization

/// How many connections each client address holds, for ``ConnectionLimits/maxConnectionsPerAddress``.
final class ConnectionsPerAddress: Sendable {
    let limit: Int
    let exempt: [IPAddressRange]
    private let counts = Mutex<[String: Int]>([:])

    init(limit: Int, exempt: [IPAddressRange]) {
        self.limit = limit
        self.exempt = exempt
    }

    /// Counts a new connection from `address`; false (and nothing counted) when the address is at its limit.
    func open(_ address: String) -> Bool {
        guard limit > 0, !exempt.containsAddress(address) else { return true }
        return counts.withLock { counts in
            let held = counts[address, default: 0]
            guard held < limit else { return false }
            counts[address] = held + 1
            return true
        }
    }

    /// Forgets a closed connection counted by ``open(_:)``.
    func close(_ address: String) {
        guard limit > 0, !exempt.containsAddress(address) else { return }
        counts.withLock { counts in
            let held = counts[address, default: 0] - 1
            counts[address] = held > 0 ? held : nil
        }
    }
}
