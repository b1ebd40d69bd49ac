import _CryptoExtras
import EntitleCore
import Foundation
import Hummingbird

/// Profiles: `GET /api/v2/{sp}/profiles`, `/profiles/{mvpd}`, `/profiles/code/{code}`.
extension EntitleService {
    func addProfileRoutes(to router: Router<AppContext>) {
        router.get("/api/v2/:sp/profiles") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let records = try await self.repository.profiles(requestor: caller.requestor.id, client: caller.clientID, device: caller.device.value)
            return JSONCoding.response(try await self.profilesAnswer(records, requestor: caller.requestor))
        }
        router.get("/api/v2/:sp/profiles/code/:code") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let session = try await self.liveSession(code: try context.parameters.require("code"), requestor: caller.requestor.id,
                                                     bucket: caller.device.value)
            guard session.clientId == caller.clientID, session.deviceId == caller.device.value else {
                try await self.countFailedCodeLookup(bucket: caller.device.value)
                throw APIError(.invalidCode)
            }
            if session.status == .failed {
                throw APIError(EnhancedError.authenticatedProfileMissing.with(details: "The sign-in at the TV provider did not succeed."))
            }
            guard session.status == .authenticated, let mvpd = session.mvpdId,
                  let record = try await self.repository.profile(requestor: caller.requestor.id, client: caller.clientID,
                                                                 device: caller.device.value, mvpd: mvpd),
                  record.notAfter > self.now else {
                throw APIError(EnhancedError(action: "authentication", status: 404, code: "authenticated_profile_missing",
                                             message: "The authentication has not completed yet. Poll again in a few seconds."))
            }
            return JSONCoding.response(try await self.profilesAnswer([record], requestor: caller.requestor))
        }
        router.get("/api/v2/:sp/profiles/:mvpd") { request, context in
            let caller = try await self.caller(request, serviceProvider: try context.parameters.require("sp"))
            let mvpd = try await self.integratedMVPD(try context.parameters.require("mvpd"), requestor: caller.requestor.id)
            let record = try await self.repository.profile(requestor: caller.requestor.id, client: caller.clientID,
                                                           device: caller.device.value, mvpd: mvpd.id)
            return JSONCoding.response(try await self.profilesAnswer(record.map { [$0] } ?? [], requestor: caller.requestor))
        }
    }

    /// The requestor's public key for encrypted user metadata, parsed once (a requestor change drops it with the catalog).
    func metadataKey(requestor: RequestorRecord) async throws -> _RSA.Encryption.PublicKey? {
        guard let pem = requestor.metadataCertificatePem else { return nil }
        // The certificate is parsed once; the key's DER (Sendable) is kept, and reading it back is cheap.
        let der = try await repository.cached("metadata-key|" + requestor.id) {
            UserMetadataEncoder.publicKey(pem: pem)?.derRepresentation
        }
        return der.flatMap { try? _RSA.Encryption.PublicKey(derRepresentation: $0) }
    }

    /// Valid profiles in wire form (expired ones are left out).
    func profilesAnswer(_ records: [ProfileRecord], requestor: RequestorRecord) async throws -> ProfilesResponse {
        var profiles: [String: Profile] = [:]
        let now = self.now
        let key = try await metadataKey(requestor: requestor)
        for var record in records where record.notAfter > now {
            let mvpd = try await repository.mvpd(id: record.mvpdId)
            if let mvpd, mvpd.temppassResourceLimit != nil {
                record.attributes = JSONText.encode(record.attributeMap.merging(try await promoMetadata(profile: record, mvpd: mvpd)) { $1 })
            }
            profiles[record.mvpdId] = UserMetadataEncoder(requestor: requestor, mvpd: mvpd, key: key).profile(record)
        }
        return ProfilesResponse(profiles: profiles)
    }
}
