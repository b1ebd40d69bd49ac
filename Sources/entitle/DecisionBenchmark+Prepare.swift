import EntitleClients
import EntitleCore
import Foundation

extension DecisionBenchmark {
    /// The headers of one signed-in device, for a load generator in another process (wrk) to replay.
    struct DeviceHeaders: Sendable, Codable, Equatable {
        /// `Authorization`.
        var authorization: String
        /// `AP-Device-Identifier`.
        var deviceIdentifier: String
        /// `X-Device-Info`.
        var deviceInfo: String
    }

    /// Registers a client, signs the subscriber in on one device and checks one decision (see `signedInWorkers`).
    func signedInDeviceHeaders() async throws -> DeviceHeaders {
        guard let client = try await signedInWorkers().first, let token = client.accessToken,
            let identifier = DeviceIdentifier(rawValue: client.deviceID)
        else {
            throw BenchmarkError(.session, "No signed-in device.")
        }
        return DeviceHeaders(
            authorization: "Bearer " + token, deviceIdentifier: identifier.headerValue,
            deviceInfo: client.deviceInfo.headerValue())
    }
}
