import EntitleModel
import Synchronization

/// TempPass windows and promotional passes in memory, for unit tests of ``TempPassService`` without a database;
/// behaves as ``TempPassStore`` (a window is created once and kept until reset; a promotional pass belongs to an
/// identity or a device and plays at most `limit` distinct resources).
package final class InMemoryTempPassStore: TempPassStoring {
    private struct WindowKey: Hashable {
        let requestor: String
        let mvpd: String
        let deviceKey: String
    }

    private struct State {
        var windows: [WindowKey: (startedAt: Int64, expiresAt: Int64)] = [:]
        var passes: [String: PromoPassRecord] = [:]
        /// Pass key → resources played, in order.
        var resources: [String: [String]] = [:]
    }

    private let state = Mutex(State())

    /// Creates an empty store.
    package init() {}

    /// The TempPass of a device, created now if there is none.
    package func tempPass(requestor: String, mvpd: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws -> (
        startedAt: Int64, expiresAt: Int64
    ) {
        state.withLock { state in
            let key = WindowKey(requestor: requestor, mvpd: mvpd, deviceKey: deviceKey)
            if let window = state.windows[key] { return window }
            state.windows[key] = (now, now + lengthMs)
            return (now, now + lengthMs)
        }
    }

    /// Deletes the TempPass of one device, or of all devices when `deviceKey` is nil; returns how many were reset.
    package func resetTempPass(requestor: String, mvpd: String, deviceKey: String?) async throws -> Int {
        state.withLock { state in
            let keys = state.windows.keys.filter { $0.requestor == requestor && $0.mvpd == mvpd && (deviceKey == nil || $0.deviceKey == deviceKey) }
            for key in keys { state.windows[key] = nil }
            return keys.count
        }
    }

    /// The promotional pass of an identity or a device (the oldest), created when there is none.
    package func promoPass(requestor: String, mvpd: String, identityKey: String, deviceKey: String, now: Int64, lengthMs: Int64) async throws
        -> PromoPassRecord
    {
        state.withLock { state in
            if let existing = state.passes.values
                .filter({ $0.requestorId == requestor && $0.mvpdId == mvpd && ($0.identityKey == identityKey || $0.deviceKey == deviceKey) })
                .min(by: { $0.startedAt < $1.startedAt })
            {
                return existing
            }
            let record = PromoPassRecord(
                passKey: Secrets.sha256Hex([requestor, mvpd, identityKey].joined(separator: "|")), requestorId: requestor,
                mvpdId: mvpd, identityKey: identityKey, deviceKey: deviceKey, startedAt: now, expiresAt: now + lengthMs)
            state.passes[record.passKey] = record
            return record
        }
    }

    /// Resources already played with a pass, in the order they were first played.
    package func promoResources(passKey: String) async throws -> [String] { state.withLock { $0.resources[passKey] ?? [] } }

    /// Uses a resource with a pass: true when it was used before or a slot was free.
    package func usePromoResource(passKey: String, resource: String, limit: Int64, now: Int64) async throws -> Bool {
        state.withLock { state in
            let used = state.resources[passKey] ?? []
            if used.contains(resource) { return true }
            guard used.count < limit else { return false }
            state.resources[passKey, default: []].append(resource)
            return true
        }
    }

    /// Deletes promotional passes by device key, identity key, or all of an MVPD; returns how many.
    package func resetPromoPasses(requestor: String, mvpd: String, deviceKey: String?, identityKey: String?) async throws -> Int {
        state.withLock { state in
            let passes = state.passes.values.filter { pass in
                guard pass.requestorId == requestor && pass.mvpdId == mvpd else { return false }
                if let deviceKey { return pass.deviceKey == deviceKey }
                if let identityKey { return pass.identityKey == identityKey }
                return true
            }
            for pass in passes {
                state.passes[pass.passKey] = nil
                state.resources[pass.passKey] = nil
            }
            return passes.count
        }
    }
}
