import _CryptoExtras
import EntitleCore
import EntitleModel
import EntitleStorage
import Foundation

/// Profiles in wire form: user metadata per requestor (encrypted keys with the requestor's certificate), Promotional
/// TempPass counters; expired profiles are left out. Knows nothing of HTTP.
package struct WireProfiles: Sendable, ClockReading {
    /// The MVPDs of the profiles, and the cache of parsed metadata keys.
    package let catalog: CatalogStore
    package let tempPass: TempPassService
    package let clock: any ServiceClock
    /// Wire forms already made (metadata decoded and encrypted), per stored profile.
    package let wireProfiles = WireProfileCache()

    /// The requestor's public key for encrypted user metadata, parsed once (a requestor change drops it with the catalog).
    package func metadataKey(requestor: RequestorRecord) async throws -> _RSA.Encryption.PublicKey? {
        guard let pem = requestor.metadataCertificatePem else { return nil }
        // The certificate is parsed once; the key's DER (Sendable) is kept, and reading it back is cheap.
        let der = try await catalog.cached(catalog.catalogCache.metadataKeys, requestor.id) {
            UserMetadataEncoder.publicKey(pem: pem)?.derRepresentation
        }
        return der.flatMap { try? _RSA.Encryption.PublicKey(derRepresentation: $0) }
    }

    /// Valid profiles in wire form (expired ones are left out).
    package func profilesAnswer(_ records: [ProfileRecord], requestor: RequestorRecord) async throws -> ProfilesResponse {
        ProfilesResponse(profiles: try await wireForms(records, requestor: requestor).mapValues(\.profile))
    }

    /// The JSON of ``profilesAnswer(_:requestor:)``, byte for byte, assembled from each profile's JSON kept with its wire
    /// form (the hot path of `GET /profiles`: no encoder runs for a profile already answered).
    package func profilesJSON(_ records: [ProfileRecord], requestor: RequestorRecord) async throws -> Data {
        ProfilesJSON.encode(try await wireForms(records, requestor: requestor))
    }

    private func wireForms(_ records: [ProfileRecord], requestor: RequestorRecord) async throws -> [String: WireProfile] {
        var profiles: [String: WireProfile] = [:]
        let now = self.now
        let generation = catalog.catalogCache.generation
        for var record in records where record.notAfter > now {
            let mvpd = try await catalog.mvpd(id: record.mvpdId)
            if let mvpd, mvpd.temppassResourceLimit != nil {
                // Promotional TempPass counters change with every play: made afresh each time.
                record.attributes = JSONText.encode(record.attributeMap.merging(try await tempPass.promoMetadata(profile: record, mvpd: mvpd)) { $1 })
                let key = try await metadataKey(requestor: requestor)
                profiles[record.mvpdId] = WireProfile(UserMetadataEncoder(requestor: requestor, mvpd: mvpd, key: key).profile(record))
                continue
            }
            if let known = wireProfiles.lookup(record, requestor: requestor.id, generation: generation) {
                profiles[record.mvpdId] = known
                continue
            }
            let profile = WireProfile(
                UserMetadataEncoder(requestor: requestor, mvpd: mvpd, key: try await metadataKey(requestor: requestor)).profile(record))
            wireProfiles.store(profile, for: record, requestor: requestor.id, generation: generation)
            profiles[record.mvpdId] = profile
        }
        return profiles
    }

    /// Creates the value from each of its stored properties.
    package init(catalog: CatalogStore, tempPass: TempPassService, clock: any ServiceClock) {
        self.catalog = catalog
        self.tempPass = tempPass
        self.clock = clock
    }
}
