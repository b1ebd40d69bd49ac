import ArgumentParser
import EntitleCore
import Foundation
import MediaTokenVerifier
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `entitle verify`: checks a short media token the way a video server would and prints the verdict and fields.
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Verify a short media token.",
        discussion: """
            Reads the token (the Base64 serializedToken) from the argument or, when absent, from standard input. \
            Exit status: 0 valid, 1 refused (any other verdict), 2 keys or input could not be read.
            """
    )

    @Option(help: "The resource about to be served (plain id or MRSS); omitted: not checked.")
    var resource: String?

    @Option(help: "The requestor id the token must be issued to, such as REF; omitted: not checked.")
    var requestor: String?

    @Option(
        help: "PEM file (certificates or public keys) or http(s) URL of the service's published key bundle (default: $ENTITLE_URL/keys/media-token).")
    var keys: String = EnvironmentDefaults.mediaTokenKeysURL

    @Option(help: "Clock-skew tolerance in seconds (0...600).")
    var clockSkew: Int = 60

    @Flag(help: "Print the verdict as JSON.")
    var json = false

    @Argument(help: "The serialized token; read from standard input when absent.")
    var token: String?

    func run() async throws {
        let tokenText: String
        if let token {
            tokenText = token
        } else {
            // A person who typed `entitle verify` alone would wait for input that never comes.
            guard isatty(0) == 0 else {
                throw ValidationError("Give the token (the Base64 serializedToken) as an argument, or pipe it on standard input.")
            }
            let data = FileHandle.standardInput.readData(ofLength: 1 << 20)
            tokenText = String(decoding: data, as: UTF8.self)
        }
        let keySet: VerificationKeySet
        do {
            keySet = try await loadKeys()
        } catch {
            let hint = keys.lowercased().hasPrefix("http") ? " (is `entitle serve` running there? Set ENTITLE_URL or pass --keys)" : ""
            FileHandle.standardError.write(Data("entitle verify: cannot load keys from \(keys): \(error)\(hint)\n".utf8))
            throw ExitCode(2)
        }
        let verifier = MediaTokenVerifier(keys: keySet, clockSkew: .seconds(clockSkew))
        let result = await verifier.verify(tokenText, requestor: requestor, resource: resource, now: Date())
        print(json ? VerifyReport(result).jsonText() : VerifyReport(result).humanText())
        if !result.isValid { throw ExitCode(1) }
    }

    private func loadKeys() async throws -> VerificationKeySet {
        let lowered = keys.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URL(string: keys) {
            let data = try await URLSessionKeyBundleFetcher().fetchKeyBundle(from: url)
            return try VerificationKeySet(pem: String(decoding: data, as: UTF8.self))
        }
        return try VerificationKeySet(contentsOfFile: keys)
    }
}

/// The printable form of a verification result.
struct VerifyReport: Codable {
    var valid: Bool
    var status: String
    var detail: String
    var signatureVerified: Bool
    var sessionGUID: String?
    var requestorID: String?
    var resourceID: String?
    var mvpdID: String?
    var proxyMvpdID: String?
    var issueTime: Int64?
    var ttl: Int64?
    var issuedAt: String?
    var expiresAt: String?

    init(_ result: VerificationResult) {
        valid = result.isValid
        status = result.status.rawValue
        detail = result.detail
        signatureVerified = result.signatureVerified
        sessionGUID = result.sessionGUID
        requestorID = result.requestorID
        resourceID = result.resourceID
        mvpdID = result.mvpdID
        proxyMvpdID = result.proxyMvpdID
        issueTime = result.token?.issueTime
        ttl = result.token?.ttl
        issuedAt = result.issueTime.map { $0.formatted(.iso8601) }
        expiresAt = result.expiresAt.map { $0.formatted(.iso8601) }
    }

    func jsonText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    func humanText() -> String {
        var lines = ["Verdict:      \(status) — \(detail)"]
        if sessionGUID != nil {
            lines.append("Signature:    \(signatureVerified ? "verified" : "NOT verified (fields below are untrusted)")")
            lines.append("Session GUID: \(sessionGUID ?? "")")
            lines.append("Requestor:    \(requestorID ?? "")")
            lines.append("Resource:     \(resourceID ?? "")")
            lines.append("MVPD:         \(mvpdID ?? "")")
            lines.append("Proxy MVPD:   \((proxyMvpdID ?? "").isEmpty ? "(none)" : proxyMvpdID!)")
            lines.append("Issued:       \(issuedAt ?? "") (\(issueTime ?? 0) ms)")
            lines.append("TTL:          \(ttl ?? 0) ms")
            lines.append("Expires:      \(expiresAt ?? "")")
        }
        return lines.joined(separator: "\n")
    }
}
