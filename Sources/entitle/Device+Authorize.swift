import AccessEnabler
import ArgumentParser
import EntitleCore
import Foundation
import MediaTokenVerifier

extension Device {
    /// `entitle device authorize RESOURCE`: gets a short media token and verifies it as a video server would.
    struct Authorize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Authorize a resource: print the media token and its verification with the service's published keys.")

        @OptionGroup var options: DeviceOptions

        @Argument(help: "Resource id (a channel title such as news) or an MRSS fragment.")
        var resource: String

        func run() async throws {
            try await DeviceRunner(options: options, command: "authorize").run { enabler, output in
                let token = try await enabler.authorize(resource)
                let keysURL = options.serverBase + "/keys/media-token"
                let result: VerificationResult
                do {
                    let data = try await URLSessionKeyBundleFetcher().fetchKeyBundle(from: URL(string: keysURL)!)
                    let keys = try VerificationKeySet(pem: String(decoding: data, as: UTF8.self))
                    result = await MediaTokenVerifier(keys: keys).verify(token, requestor: options.requestor, resource: resource, now: Date())
                } catch {
                    throw DeviceFailure(message: "authorized, but the keys at \(keysURL) could not be loaded: \(error)")
                }
                let formatter = ISO8601DateFormatter()
                var verification: [String: Any] = [
                    "status": result.status.rawValue, "valid": result.isValid,
                    "signatureVerified": result.signatureVerified, "detail": result.detail,
                ]
                verification["requestorID"] = result.requestorID
                verification["resourceID"] = result.resourceID
                verification["mvpdID"] = result.mvpdID
                verification["expiresAt"] = result.expiresAt.map { formatter.string(from: $0) }
                let text = """
                    Authorized: \(resource)
                    Media token: \(token)
                    Verification: \(result.status.rawValue) — \(result.detail)
                      requestor \(result.requestorID ?? "?"), resource \(result.resourceID ?? "?"), MVPD \(result.mvpdID ?? "?"), \
                    expires \(result.expiresAt.map { formatter.string(from: $0) } ?? "?")
                    """
                guard result.isValid else {
                    if options.json {
                        output.write(
                            DeviceOutput.jsonLine([
                                "ok": false, "error": "verification", "resource": resource,
                                "mediaToken": token, "verification": verification,
                            ]), to: .standardOutput)
                    } else {
                        output.write(text + "\nThe media token did not verify.\n", to: .standardError)
                    }
                    throw ExitCode(1)
                }
                output.success(["resource": resource, "mediaToken": token, "verification": verification], text: text)
            }
        }
    }

    /// `entitle device metadata NAME`: a user metadata value (zip, householdID, maxRating, userID, …).
    struct Metadata: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a user metadata value (zip, householdID, maxRating, userID, …).")

        @OptionGroup var options: DeviceOptions

        @Option(help: "The programmer's private key (PEM) to decrypt encrypted values, e.g. .entitle/demo/programmer-key.pem.")
        var programmerKey: String?

        @Argument(help: "The metadata name.")
        var name: String

        func run() async throws {
            try await DeviceRunner(options: options, command: "metadata").run { enabler, output in
                let result = try await enabler.userMetadata(name)
                guard let value = result.value else {
                    throw DeviceFailure(message: "the TV provider did not supply \(name)")
                }
                var fields: [String: Any] = ["name": name, "value": DeviceOutput.foundationValue(value), "encrypted": result.encrypted]
                var text = "\(name): \(DeviceOutput.text(value))"
                if result.encrypted {
                    if let programmerKey {
                        let plain = try decrypt(value, keyPath: programmerKey)
                        fields["decrypted"] = DeviceOutput.foundationValue(plain)
                        text = "\(name): \(DeviceOutput.text(plain)) (was encrypted for the programmer; decrypted with \(programmerKey))"
                    } else {
                        text += "\n(encrypted for the programmer; pass --programmer-key to decrypt it)"
                    }
                }
                output.success(fields, text: text)
            }
        }

        private func decrypt(_ value: JSONValue, keyPath: String) throws -> JSONValue {
            do {
                let pem = try String(contentsOfFile: keyPath, encoding: .utf8)
                return try UserMetadataDecryptor(privateKeyPEM: pem).decrypt(value)
            } catch {
                throw DeviceFailure(message: "cannot decrypt \(name) with \(keyPath): \(error)")
            }
        }
    }
}
