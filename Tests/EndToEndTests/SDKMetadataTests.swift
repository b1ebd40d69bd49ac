import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// `getMetadata:` → `setMetadataStatus:encrypted:forKey:andArguments:` for every opcode, against the real service:
/// the values are compared with what the service sent on the wire and with the demo world's subscribers.
@Suite struct SDKMetadataTests {
    @Test func authenticationTTLIsTheProfilesNotAfter() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            let query: [String: any Sendable] = [METADATA_OPCODE_KEY: METADATA_AUTHENTICATION]
            app.enabler.getMetadata(query)
            try await app.waitFor("setMetadataStatus")
            let before = try #require(app.metadata.withLock { $0.last })
            #expect(before.value == nil && before.encrypted == false && before.key == METADATA_AUTHENTICATION)

            try await app.signIn()
            app.enabler.getMetadata(query)
            try await app.waitFor("setMetadataStatus", count: 2)
            let after = try #require(app.metadata.withLock { $0.last })
            let profiles = try app.wire.lastBody("/profiles/DemoCable", as: ProfilesResponse.self)
            let notAfter = try #require(profiles.profiles["DemoCable"]?.notAfter)
            #expect(after.value == .string(String(notAfter)))
            #expect(after.encrypted == false)
            #expect(after.key == METADATA_AUTHENTICATION)
            #expect(after.arguments[METADATA_OPCODE_KEY] as? Int32 == METADATA_AUTHENTICATION)
            // A TTL in epoch milliseconds, in the future.
            #expect(notAfter > Int64(Date().timeIntervalSince1970 * 1000))
        }
    }

    @Test func authorizationTTLIsPerResourceAndComesFromTheDecision() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            app.enabler.getAuthorization("news")
            try await app.waitFor("setToken(news)")
            for (index, resource) in ["news", "sports"].enumerated() {
                app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: resource])
                try await app.waitFor("setMetadataStatus", count: index + 1)
            }
            let answers = app.metadata.withLock { $0 }
            let decisions = try app.wire.lastBody("/decisions/authorize/DemoCable", as: DecisionsResponse.self)
            let decision = try #require(decisions.decisions.first { $0.resource == "news" })
            let notAfter = try #require(decision.notAfter ?? decision.token?.notAfter)
            #expect(answers[0].value == .string(String(notAfter)))
            #expect(answers[0].key == METADATA_AUTHORIZATION && answers[0].encrypted == false)
            #expect(answers[0].arguments[METADATA_RESOURCE_ID_KEY] as? String == "news")
            // No authorization for sports yet.
            #expect(answers[1].value == nil && answers[1].key == METADATA_AUTHORIZATION)
            #expect(answers[1].arguments[METADATA_RESOURCE_ID_KEY] as? String == "sports")

            app.enabler.getAuthorization("sports")
            try await app.waitFor("setToken(sports)")
            app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_AUTHORIZATION, METADATA_RESOURCE_ID_KEY: "sports"])
            try await app.waitFor("setMetadataStatus", count: 3)
            let sports = try app.wire.lastBody("/decisions/authorize/DemoCable", as: DecisionsResponse.self).decisions.first
            let sportsNotAfter = try #require(sports?.notAfter ?? sports?.token?.notAfter)
            #expect(app.metadata.withLock { $0.last?.value } == .string(String(sportsNotAfter)))
        }
    }

    /// Protocol notes §8.4: the device id is metadata only where the programmer enabled the feature; by default
    /// `getMetadata(METADATA_DEVICE_ID)` answers nil.
    @Test func deviceIDIsNotMetadataUnlessEnabled() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID])
            try await app.waitFor("setMetadataStatus")
            let answer = try #require(app.metadata.withLock { $0.last })
            #expect(answer.value == nil && answer.key == METADATA_DEVICE_ID)
            #expect(try await app.enabler.metadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]).value == nil)
        }
    }

    @Test func deviceIDIsTheOneSentOnTheWire() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service, deviceIDMetadata: true)
            try await app.configure()
            app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID])
            try await app.waitFor("setMetadataStatus")
            let answer = try #require(app.metadata.withLock { $0.last })
            #expect(answer.value == .string(app.deviceID))
            #expect(answer.key == METADATA_DEVICE_ID && answer.encrypted == false)
            let sent = try #require(app.wire.exchanges("/configuration").first?.request.header("AP-Device-Identifier"))
            #expect(sent == "fingerprint " + Data(app.deviceID.utf8).base64EncodedString())
            // The async form answers the same.
            #expect(try await app.enabler.metadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]).value == .string(app.deviceID))
        }
    }

    @Test func userMetadataOfAliceWithTheEncryptedZipDecrypted() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            let names = ["zip", "householdID", "maxRating", "userID", "channelID"]
            for (index, name) in names.enumerated() {
                app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: name])
                try await app.waitFor("setMetadataStatus", count: index + 1)
            }
            let answers = app.metadata.withLock { $0 }
            #expect(answers.map(\.key) == Array(repeating: METADATA_USER_META, count: names.count))
            #expect(answers.map { $0.arguments[METADATA_USER_META_KEY] as? String } == names)
            #expect(answers.map(\.encrypted) == [true, false, false, false, false])

            let pem = try String(contentsOfFile: try #require(service.host.demoInfo?.programmerKeyPath), encoding: .utf8)
            let decryptor = try UserMetadataDecryptor(privateKeyPEM: pem)
            let zip = try #require(answers[0].value)
            #expect("\(zip)".contains("10001") == false, "the zip must not travel in clear text")
            // Decrypts to 10001 (currently as a JSON number: see zipDecryptsToTheStringTheMVPDSent).
            let plain = try decryptor.decrypt(zip)
            #expect(plain == .string("10001") || plain == .number(10001), "decrypted: \(plain)")
            #expect(Self.strings(answers[1].value) == ["H-1001"])
            #expect(Self.strings(answers[2].value) == ["TV-MA"])
            #expect(Self.strings(answers[3].value) == ["dc-alice-7f3a"])
            #expect(Self.strings(answers[4].value) == ["news", "sports", "movies"])
        }
    }

    /// The MVPD asserted the zip as the string "10001" and the service encrypts exactly those bytes; the decrypted
    /// value should be that string, as the unencrypted attributes are (not a number that would print "10001.0" and
    /// would lose leading zeros' consistency: "02134" stays a string, "10001" becomes a number).
    @Test
    func zipDecryptsToTheStringTheMVPDSent() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn()
            let zip = try await app.enabler.userMetadata("zip")
            #expect(zip.encrypted)
            let pem = try String(contentsOfFile: try #require(service.host.demoInfo?.programmerKeyPath), encoding: .utf8)
            #expect(try UserMetadataDecryptor(privateKeyPEM: pem).decrypt(try #require(zip.value)) == .string("10001"))
        }
    }

    @Test func userMetadataOfBobTheSubAccount() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            try await app.signIn(user: "bob")
            #expect(Self.strings(try await app.enabler.userMetadata("maxRating").value) == ["TV-PG"])
            #expect(Self.strings(try await app.enabler.userMetadata("userID").value) == ["dc-bob-2c9e"])
            #expect(Self.strings(try await app.enabler.userMetadata("householdID").value) == ["H-1001"])
            #expect(Self.strings(try await app.enabler.userMetadata("channelID").value) == ["news", "sports"])
            let unknown = try await app.enabler.userMetadata("favouriteColour")
            #expect(unknown.value == nil && unknown.encrypted == false)
        }
    }

    @Test func userMetadataIsNilWhenNotAuthenticatedAndAnInvalidOpcodeAnswers255() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.getMetadata([METADATA_OPCODE_KEY: METADATA_USER_META, METADATA_USER_META_KEY: "zip"])
            app.enabler.getMetadata([METADATA_OPCODE_KEY: Int32(42)])
            app.enabler.getMetadata(["something": "else"])
            try await app.waitFor("setMetadataStatus", count: 3)
            let answers = app.metadata.withLock { $0 }
            #expect(answers[0].value == nil && answers[0].key == METADATA_USER_META && answers[0].encrypted == false)
            #expect(answers[1].value == nil && answers[1].key == METADATA_INVALID)
            #expect(answers[2].value == nil && answers[2].key == METADATA_INVALID)
            #expect(answers[2].arguments["something"] as? String == "else")
        }
    }

    /// The strings of a metadata value: a single string or an array of strings.
    static func strings(_ value: JSONValue?) -> [String]? {
        switch value {
        case .string(let text)?: return [text]
        case .array(let values)?: return values.compactMap(\.stringValue)
        default: return nil
        }
    }
}
