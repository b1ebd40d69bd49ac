import EntitleCore
import EntitleHost
import EntitleDomain
import EntitleHTTP
import EntitleModel
import EntitleStorage
import EntitleTesting
import Foundation
import Testing

/// `entitle admin requestor set-media-token-algorithm`, then `entitle device authorize` and `entitle verify`, as processes.
@Suite(.serialized, .timeLimit(.minutes(10))) struct MediaTokenAlgorithmCommandTests {
    typealias DeviceBox = DeviceCommandTests.DeviceBox

    @Test func ed25519RequestorTokensVerifyWithTheCLI() async throws {
        try await LocalService.run { service in
            let data = ["ENTITLE_DATA_DIR": service.dataDirectory]
            let unknown = try await FirstHourCommandTests.entitle(
                ["admin", "requestor", "set-media-token-algorithm", "--requestor", "REF", "--algorithm", "hmac"], environment: data)
            #expect(unknown.status != 0)
            #expect(unknown.stderr.contains("Unknown algorithm hmac"), "\(unknown.stderr)")
            // A key that would sign before video servers can have fetched it is refused unless forced.
            let early = try await FirstHourCommandTests.entitle(
                ["admin", "requestor", "set-media-token-algorithm", "--requestor", "REF", "--algorithm", "ed25519", "--promote-after", "10"],
                environment: data)
            #expect(early.status != 0)
            #expect(early.stderr.contains("shorter than the 300 s video servers cache"), "\(early.stderr)")
            let earlyRotation = try await FirstHourCommandTests.entitle(["admin", "keys", "rotate", "--promote-after", "10"], environment: data)
            #expect(earlyRotation.status != 0)
            #expect(earlyRotation.stderr.contains("--force for an emergency rotation"), "\(earlyRotation.stderr)")
            let set = try await FirstHourCommandTests.entitle(
                [
                    "admin", "requestor", "set-media-token-algorithm", "--requestor", "REF", "--algorithm", "ed25519", "--promote-after", "0",
                    "--force",
                ],
                environment: data)
            #expect(set.status == 0, "\(set.stderr)")
            #expect(set.stdout.contains("media tokens of REF: ed25519"), "\(set.stdout)")
            let listed = try await FirstHourCommandTests.entitle(["admin", "requestor", "media-token-algorithms"], environment: data)
            #expect(listed.stdout.contains("REF\ted25519"), "\(listed.stdout) \(listed.stderr)")
            // The running service sees the catalog change within its refresh bound (500 ms). Its clock is a manual one
            // started before the admin process created the key (with the real time): move it past the key's creation,
            // however long the machine took to get here.
            try await Task.sleep(for: .seconds(1))
            let lag = Double(Int64((Date().timeIntervalSince1970 * 1000).rounded()) - service.clock.nowMilliseconds()) / 1000
            service.clock.advance(by: max(0, lag) + 60)

            let device = try DeviceBox(service: service)
            defer { device.remove() }
            #expect(try await FirstHourCommandTests.loginSkippingThePicker(device, service: service).status == 0)
            let process = try DeviceProcess(
                binary: try DeviceCommandTests.binary(), arguments: ["device", "authorize", "news", "--json"] + Array(device.arguments.dropFirst(2)),
                directory: device.directory, environment: ["ENTITLE_URL": service.baseURL])
            defer { process.stop() }
            let authorized = try await process.finish(timeout: DeviceProcess.patience)
            #expect(authorized.status == 0, "\(authorized.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(authorized.stdout.utf8)) as? [String: Any])
            let token = try #require(object["mediaToken"] as? String)
            #expect(try MediaTokenEnvelope(serialized: token).signature.count == 64)
            let verified = try await FirstHourCommandTests.entitle(
                ["verify", "--resource", "news", "--requestor", "REF", token],
                environment: ["ENTITLE_URL": service.baseURL])
            #expect(verified.status == 0, "\(verified.stdout) \(verified.stderr)")
            // A changed body is refused.
            let decoded = String(decoding: try #require(Data(base64Encoded: token)), as: UTF8.self)
            let forged = Data(decoded.replacingOccurrences(of: "<resourceID>news<", with: "<resourceID>newz<").utf8).base64EncodedString()
            let refused = try await FirstHourCommandTests.entitle(["verify", forged], environment: ["ENTITLE_URL": service.baseURL])
            #expect(refused.status == 1, "\(refused.stdout) \(refused.stderr)")
            #expect(refused.stdout.contains("invalidSignature"), "\(refused.stdout)")
        }
    }
}
