import AccessEnabler
import EntitleCore
import EntitleHost
import EntitleTesting
import Foundation
import Testing

/// `sendTrackingData:forEventType:` with the exact data arrays of the API reference's tables, against the real
/// service. The GUIDs are MD5 digests of the DemoMVPD user ids, computed outside the SDK (`md5sum`).
@Suite struct SDKTrackingTests {
    static let aliceGUID = "1a05d6cee58ef33c0d3d0d0be37327fc"  // md5("dc-alice-7f3a")
    static let bobGUID = "1aeeb0f64fccc71c26181de4270cc4a0"  // md5("dc-bob-2c9e")

    /// Device type, client type and OS as the service derived them from the `X-Device-Info` the SDK sent.
    static func deviceFields(_ app: SDKProbe) throws -> [String] {
        let configuration = try app.wire.lastBody("/configuration", as: ConfigurationResponse.self)
        return [configuration.device, configuration.clientType, configuration.os]
    }

    /// The device fields of the tracking arrays: the service's device in the API reference's vocabulary
    /// (Desktop → computer, Tablet → tablet, …), client type `ios`, the operating system as the service read it.
    static func trackedFields(_ app: SDKProbe) throws -> [String] {
        let wire = try deviceFields(app)
        let types = ["Desktop": "computer", "Tablet": "tablet", "MobilePhone": "mobile", "GamesConsole": "gameconsole"]
        return [types[wire[0]] ?? "unknown", "ios", wire[2]]
    }

    @Test func authenticationDetectionArrays() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            let wireDevice = try Self.deviceFields(app)
            let device = try Self.trackedFields(app)
            // The service read the device from the SDK's X-Device-Info (on Linux: Desktop, native, Linux).
            let info = DeviceEnvironment.current()
            #expect(wireDevice == [info.primaryHardwareType ?? "", "native", info.osName ?? ""])
            #expect(device == ["computer", "ios", info.osName ?? ""])

            app.enabler.checkAuthentication()
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHENTICATION)")
            try await app.signIn()
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHENTICATION)", count: 2)
            app.enabler.checkAuthentication()
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHENTICATION)", count: 3)
            app.enabler.getAuthentication()
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHENTICATION)", count: 4)

            let events = app.tracking.withLock { $0 }.filter { $0.event == TRACKING_AUTHENTICATION }.map(\.data)
            #expect(
                events == [
                    ["false", "", "", "false"] + device,  // not authenticated
                    ["true", "DemoCable", Self.aliceGUID, "false"] + device,  // fresh login through handleExternalURL
                    ["true", "DemoCable", Self.aliceGUID, "true"] + device,  // checkAuthentication: token in cache
                    ["true", "DemoCable", Self.aliceGUID, "true"] + device,  // getAuthentication while authenticated
                ])
            // Each authentication callback is followed by its tracking event.
            let order = app.log.filter { $0.hasPrefix("setAuthenticationStatus") || $0.hasPrefix("sendTrackingData(0") }
            #expect(
                order.map { $0.hasPrefix("setAuthenticationStatus") ? "status" : "tracking" }
                    == Array(repeating: ["status", "tracking"], count: 4).flatMap { $0 })
        }
    }

    @Test func authorizationDetectionArrays() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            let device = try Self.trackedFields(app)
            app.enabler.checkAuthorization("news")
            try await app.waitFor("tokenRequestFailed(news")
            try await app.signIn(user: "bob")
            app.enabler.checkAuthorization("news")
            try await app.waitFor("setToken(news)")
            app.enabler.getAuthorization("movies")
            let denial = try await app.waitFor("tokenRequestFailed(movies")
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHORIZATION)", count: 3)

            let details = String(denial.split(separator: ",", maxSplits: 2)[2].dropLast())
            #expect(details.contains("TV-MA"))
            // The status callback of the denial: Z100 with the resource and the MVPD's message.
            let denied = try #require(app.statuses.withLock { $0 }.first { $0[STATUS_ERROR_ID_KEY] == "Z100" })
            #expect(denied[STATUS_RESOURCE_KEY] == "movies" && denied[STATUS_LEVEL_KEY] == "error")
            #expect(denied[STATUS_MESSAGE_KEY] == details)
            let events = app.tracking.withLock { $0 }.filter { $0.event == TRACKING_AUTHORIZATION }.map(\.data)
            #expect(
                events == [
                    ["false", "", "", "false", USER_NOT_AUTHENTICATED_ERROR, ""] + device,
                    ["true", "DemoCable", Self.bobGUID, "false", "", ""] + device,
                    ["false", "DemoCable", Self.bobGUID, "false", USER_NOT_AUTHORIZED_ERROR, details] + device,
                ])
        }
    }

    @Test func mvpdSelectionArrayComesBeforeTheLoginPage() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            let device = try Self.trackedFields(app)
            app.enabler.getAuthentication()
            try await app.waitFor("displayProviderDialog")
            app.enabler.setSelectedProvider("DemoCable")
            try await app.waitFor("setAuthenticationStatus(1,)")
            let selections = app.tracking.withLock { $0 }.filter { $0.event == TRACKING_GET_SELECTED_PROVIDER }.map(\.data)
            #expect(selections == [["DemoCable"] + device])
            let order = app.log.filter { !$0.hasPrefix("status") }
            let tracked = try #require(order.firstIndex { $0.hasPrefix("sendTrackingData(2,") })
            let navigated = try #require(order.firstIndex { $0.hasPrefix("navigate(") })
            #expect(tracked < navigated)

            // Cancelling is not a selection.
            app.enabler.getAuthentication(true, withData: nil)
            try await app.waitFor("displayProviderDialog", count: 2)
            app.enabler.setSelectedProvider(nil)
            try await app.waitFor("setAuthenticationStatus(0,\(PROVIDER_NOT_SELECTED_ERROR))")
            #expect(app.tracking.withLock { $0 }.filter { $0.event == TRACKING_GET_SELECTED_PROVIDER }.count == 1)
        }
    }

    @Test func deviceInfoOptionChangesTheTrackedDevice() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            let info = DeviceInfo(
                primaryHardwareType: "Tablet", model: "iPad", osName: "iPadOS", osVersion: "17.2",
                applicationId: "tv.reference.app")
            app.enabler.setOptions([OPTION_DEVICE_INFO: info.headerValue()])
            try await app.configure()
            #expect(try Self.deviceFields(app) == ["Tablet", "native", "iPadOS"])
            app.enabler.setSelectedProvider("TempPass")
            try await app.waitFor("setAuthenticationStatus(1,)")
            #expect(
                app.tracking.withLock { $0 }.first { $0.event == TRACKING_GET_SELECTED_PROVIDER }?.data
                    == ["TempPass", "tablet", "ios", "iPadOS"])
        }
    }

    /// The API reference lists the values of the device type (`computer`, `tablet`, `mobile`, `gameconsole`,
    /// `unknown`) and of the AccessEnabler client type (`flash`, `html5`, `ios`, `android`).
    @Test
    func trackedDeviceAndClientTypeUseTheDocumentedValues() async throws {
        try await LocalService.run { service in
            let app = SDKProbe(service: service)
            try await app.configure()
            app.enabler.checkAuthentication()
            try await app.waitFor("sendTrackingData(\(TRACKING_AUTHENTICATION)")
            let data = try #require(app.tracking.withLock { $0.first?.data })
            #expect(["computer", "tablet", "mobile", "gameconsole", "unknown"].contains(data[4]))
            #expect(["flash", "html5", "ios", "android"].contains(data[5]))
        }
    }
}
