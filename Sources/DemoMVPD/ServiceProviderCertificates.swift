import EntitleCore
import Foundation
import Logging
import SAML
import Synchronization

/// The signing certificates of trusted service providers that publish them (``TrustedServiceProvider/certificateSource``),
/// as a real IdP follows an SP's metadata: read when first needed, read again once they are older than
/// ``DemoMVPDConfiguration/serviceProviderRefresh`` (the bound on how long a rotated SP key can be refused), and read at
/// once (at most once a second) when a request does not verify with the set held — the SP may have just promoted its
/// successor key. A failed read keeps the set held.
package final class ServiceProviderCertificates: Sendable {
    private struct Entry: Sendable {
        var certificates: [Certificate]
        var readAt: Date
        var forcedAt: ContinuousClock.Instant?
    }

    private let entries = Mutex<[String: Entry]>([:])
    /// Reads made (tests check the bound).
    package let reads = DemoCounter()

    /// Creates an empty set.
    package init() {}

    /// The certificates held for the SP `entityID`, or nil before the first read.
    func certificates(entityID: String) -> [Certificate]? {
        entries.withLock { $0[entityID]?.certificates }
    }

    /// Reads the certificates of every SP with a source whose set is missing or older than `bound`; with `force`, also
    /// the others, unless one was forced less than a second ago.
    func refresh(_ providers: [TrustedServiceProvider], now: Date, bound: TimeInterval, force: Bool, logger: Logger) async {
        for provider in providers {
            guard let source = provider.certificateSource else { continue }
            let due: Bool = entries.withLock { entries in
                guard var entry = entries[provider.entityID] else { return true }
                if now.timeIntervalSince(entry.readAt) >= bound || now < entry.readAt { return true }
                guard force else { return false }
                let instant = ContinuousClock.now
                if let forcedAt = entry.forcedAt, forcedAt.duration(to: instant) < .seconds(1) { return false }
                entry.forcedAt = instant
                entries[provider.entityID] = entry
                return true
            }
            guard due else { continue }
            do {
                let certificates = try await source()
                reads.increment()
                entries.withLock { entries in
                    entries[provider.entityID] = Entry(
                        certificates: certificates, readAt: now, forcedAt: entries[provider.entityID]?.forcedAt)
                }
            } catch {
                logger.warning(
                    "demo MVPD could not read the service provider's certificates; keeping the ones held",
                    metadata: ["sp": "\(provider.entityID.logEscaped)", "error.type": "\(type(of: error))"])
            }
        }
    }
}
