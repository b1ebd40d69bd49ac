import EntitleCore
import Foundation
import Testing

/// The typed words keep their wire and database text: each encodes as the plain string it replaced, decodes back to
/// the same constant, and an unknown word survives a round trip unchanged.
@Suite struct OpenCodeTests {
    /// Encodes `value` alone, as JSON text.
    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    /// Checks that every constant is written as its expected text and read back as itself, and that `unknown` (a word
    /// no constant names) comes back unchanged and equal to none of them.
    static func checkWords<T: OpenCode>(
        _ words: [(T, String)], unknown: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for (word, text) in words {
            #expect(word.rawValue == text, sourceLocation: sourceLocation)
            #expect(try json(word) == "\"\(text)\"", sourceLocation: sourceLocation)
            #expect(try JSONDecoder().decode(T.self, from: Data("\"\(text)\"".utf8)) == word, sourceLocation: sourceLocation)
            #expect("\(word)" == text, sourceLocation: sourceLocation)
        }
        #expect(Set(words.map(\.0)).count == words.count, "two constants share a text", sourceLocation: sourceLocation)
        let decoded = try JSONDecoder().decode(T.self, from: Data("\"\(unknown)\"".utf8))
        #expect(decoded.rawValue == unknown, sourceLocation: sourceLocation)
        #expect(try json(decoded) == "\"\(unknown)\"", sourceLocation: sourceLocation)
        #expect(!words.contains { $0.0 == decoded }, sourceLocation: sourceLocation)
    }

    @Test func decisionSources() throws {
        try Self.checkWords(
            [(DecisionSource.mvpd, "mvpd"), (.degradation, "degradation"), (.tempPass, "temppass")],
            unknown: "partner")
    }

    @Test func profileTypes() throws {
        try Self.checkWords(
            [
                (ProfileType.regular, "regular"), (.temporary, "temporary"), (.degraded, "degraded"),
                (.platformSSO, "platformSSO"), (.serviceTokenSSO, "serviceTokenSSO"), (.appleSSO, "appleSSO"),
            ],
            unknown: "futureSSO")
    }

    @Test func sessionStatuses() throws {
        try Self.checkWords(
            [
                (AuthenticationSessionStatus.pending, "pending"), (.authenticating, "authenticating"),
                (.authenticated, "authenticated"), (.failed, "failed"), (.cancelled, "cancelled"),
            ],
            unknown: "expired")
    }

    @Test func attributeStates() throws {
        try Self.checkWords([(ProfileAttribute.State.plain, "plain"), (.encrypted, "enc")], unknown: "signed")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try encoder.encode(ProfileAttribute(value: .string("x"))), as: UTF8.self)
                == #"{"state":"plain","value":"x"}"#)
    }

    @Test func degradationRules() throws {
        try Self.checkWords(
            [(DegradationRule.authnAll, "authn-all"), (.authzAll, "authz-all"), (.authzNone, "authz-none")],
            unknown: "authn-none")
        #expect(DegradationRule.known == [.authnAll, .authzAll, .authzNone])
        #expect(!DegradationRule.known.contains(DegradationRule(rawValue: "authn-none")))
    }

    @Test func keyPurposes() throws {
        try Self.checkWords(
            [
                (KeyPurpose.mediaToken, "media-token"), (.mediaTokenECDSAP256, "media-token-ecdsa-p256"),
                (.mediaTokenEd25519, "media-token-ed25519"), (.jwt, "jwt"), (.samlSP, "saml-sp"),
            ],
            unknown: "oidc")
        #expect(KeyPurpose.known.filter(\.isMediaToken) == [.mediaToken, .mediaTokenECDSAP256, .mediaTokenEd25519])
        #expect(!KeyPurpose(rawValue: "oidc").isMediaToken)
    }

    @Test func mvpdKinds() throws {
        try Self.checkWords([(MVPDKind.saml, "saml"), (.tempPass, "temppass")], unknown: "oidc")
    }

    @Test func boardingStatuses() throws {
        try Self.checkWords([(BoardingStatus.supported, "SUPPORTED"), (.picker, "PICKER")], unknown: "PENDING")
    }

    @Test func sessionAndLogoutActions() throws {
        try Self.checkWords(
            [
                (ActionName.authenticate, "authenticate"), (.resume, "resume"), (.authorize, "authorize"),
                (.retry, "retry"), (.partnerProfile, "partner_profile"), (.logout, "logout"),
                (.complete, "complete"), (.partnerLogout, "partner_logout"),
            ],
            unknown: "partner_resume")
        try Self.checkWords(
            [
                (ActionType.interactive, "interactive"), (.direct, "direct"), (.none, "none"),
                (.partnerInteractive, "partner_interactive"),
            ],
            unknown: "deferred")
        try Self.checkWords(
            [
                (ReasonType.none, "none"), (.authenticated, "authenticated"), (.temporary, "temporary"),
                (.degraded, "degraded"), (.authenticatedSSO, "authenticatedSSO"),
            ],
            unknown: "authenticatedPartner")
        let text = #"{"actionName":"authorize","actionType":"direct","reasonType":"temporary"}"#
        let session = try JSONDecoder().decode(SessionResponse.self, from: Data(text.utf8))
        #expect(session.actionName == .authorize && session.actionType == .direct && session.reasonType == .temporary)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(session), as: UTF8.self) == text)
    }

    @Test func enhancedErrorCodesAndActions() throws {
        try Self.checkWords(
            [
                (EnhancedError.Code.invalidAccessTokenClientApplication, "invalid_access_token_client_application"),
                (.invalidParameterCode, "invalid_parameter_code"),
                (.temporaryAccessDurationLimitExceeded, "temporary_access_duration_limit_exceeded"),
                (.authorizationDeniedByDegradationRule, "authorization_denied_by_degradation_rule"),
                (.invalidParameterResources, "invalid_parameter_resources"),
            ],
            unknown: "invalid_header_pfs_provider_info_expired")
        try Self.checkWords(
            [
                (EnhancedError.Action.none, "none"), (.configuration, "configuration"),
                (.applicationRegistration, "application-registration"), (.authentication, "authentication"),
                (.authorization, "authorization"), (.degradation, "degradation"), (.retry, "retry"),
                (.retryAfter, "retry-after"),
            ],
            unknown: "upgrade")
    }

    /// Each catalog error carries the constant of its own name, so the SDK's checks against the constants match
    /// what the service sends.
    @Test func catalogUsesTheCodeConstants() {
        #expect(EnhancedError.invalidAccessTokenClientApplication.code == .invalidAccessTokenClientApplication)
        #expect(EnhancedError.invalidCode.code == .invalidParameterCode)
        #expect(EnhancedError.invalidResources.code == .invalidParameterResources)
        #expect(EnhancedError.temporaryAccessDurationLimitExceeded.code == .temporaryAccessDurationLimitExceeded)
        #expect(EnhancedError.temporaryAccessDurationLimitExceeded.action == .authentication)
        #expect(EnhancedError.authorizationDeniedByDegradationRule.code == .authorizationDeniedByDegradationRule)
        #expect(EnhancedError.tooManyRequests.action == .retryAfter)
        #expect(EnhancedError.invalidAccessTokenServiceProvider.action == .applicationRegistration)
    }

    /// A whole error body and a decision keep the field names and texts they had as strings; unknown words pass.
    @Test func wireBodiesAreUnchanged() throws {
        let text = #"{"action":"upgrade","code":"some_future_code","helpUrl":"h","message":"m","status":418,"trace":"t"}"#
        let error = try JSONDecoder().decode(EnhancedError.self, from: Data(text.utf8))
        #expect(error.code.rawValue == "some_future_code" && error.action.rawValue == "upgrade")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(error), as: UTF8.self) == text)

        let decision = Decision(resource: "news", serviceProvider: "REF", mvpd: "TempPass", source: .tempPass, authorized: true)
        let decisionText = String(decoding: try encoder.encode(decision), as: UTF8.self)
        #expect(decisionText == #"{"authorized":true,"mvpd":"TempPass","resource":"news","serviceProvider":"REF","source":"temppass"}"#)
        #expect(try JSONDecoder().decode(Decision.self, from: Data(decisionText.utf8)) == decision)

        let profile = Profile(notBefore: 1, notAfter: 2, issuer: "Entitle", type: .degraded, attributes: [:])
        #expect(
            String(decoding: try encoder.encode(profile), as: UTF8.self)
                == #"{"attributes":{},"issuer":"Entitle","notAfter":2,"notBefore":1,"type":"degraded"}"#)
    }
}
