import AccessEnabler
import ArgumentParser
import Foundation

/// `entitle device`: a TV box in the terminal, built on the AccessEnabler SDK in second-screen mode.
struct Device: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A TV box in the terminal: sign in with a code on a second screen, then authorize resources.",
        discussion: """
            Uses the AccessEnabler SDK in second-screen mode against the service at --server (default: $ENTITLE_URL, \
            else http://127.0.0.1:8080) and keeps its credentials, access token, device id and sign-in in --state-dir \
            (files readable by the owner only). Exit status: 0 success, 2 not signed in, \
            3 denied by the TV provider, 130 interrupted, 1 any other error.
            """,
        subcommands: [Login.self, Status.self, Providers.self, Authorize.self, Preauthorize.self, Metadata.self, Logout.self]
    )

    /// `entitle device status`: the MVPD the device is signed in with.
    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the TV provider the device is signed in with.")

        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceRunner(options: options, command: "status").run { enabler, output in
                guard let id = await enabler.authenticatedMVPD() else {
                    throw AccessEnablerError(code: .notAuthenticated, message: "not signed in")
                }
                let name = await Device.displayName(of: id, enabler)
                let deviceID =
                    (try? await enabler.metadata([METADATA_OPCODE_KEY: METADATA_DEVICE_ID]).value).flatMap { $0 }
                    .map(DeviceOutput.text) ?? ""
                output.success(
                    ["signedIn": true, "mvpd": id, "displayName": name, "deviceID": deviceID],
                    text: "Signed in with \(name) (\(id)).\nDevice id: \(deviceID)")
            }
        }
    }

    /// `entitle device providers`: the TV providers the requestor works with.
    struct Providers: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the TV providers (id, name, flags).")

        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceRunner(options: options, command: "providers").run { enabler, output in
                let mvpds = try await enabler.providers()
                let width = mvpds.map(\.ID.count).max() ?? 0
                let nameWidth = mvpds.map(\.displayName.count).max() ?? 0
                let lines = mvpds.map { mvpd in
                    let flags = Device.flags(of: mvpd)
                    return mvpd.ID.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                        + mvpd.displayName.padding(toLength: nameWidth + 2, withPad: " ", startingAt: 0) + flags.joined(separator: ", ")
                }.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
                let objects: [[String: Any]] = mvpds.map {
                    ["id": $0.ID, "displayName": $0.displayName, "logoURL": $0.logoURL, "flags": Device.flags(of: $0)]
                }
                output.success(["providers": objects], text: lines.joined(separator: "\n"))
            }
        }
    }

    /// `entitle device preauthorize RESOURCE…`: which resources the subscriber may watch.
    struct Preauthorize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Check which of the resources the subscriber may watch.")

        @OptionGroup var options: DeviceOptions

        @Argument(help: "Resource ids (channel titles such as news, sports, movies) or MRSS fragments.")
        var resources: [String]

        func validate() throws {
            guard !resources.isEmpty else { throw ValidationError("Name at least one resource.") }
        }

        func run() async throws {
            try await DeviceRunner(options: options, command: "preauthorize").run { enabler, output in
                let authorized = try await enabler.preauthorize(resources, cache: false)
                let denied = resources.filter { !authorized.contains($0) }
                let width = resources.map(\.count).max() ?? 0
                let lines = resources.map { resource in
                    resource.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                        + (authorized.contains(resource) ? "authorized" : "not authorized")
                }
                output.success(["authorized": authorized, "denied": denied], text: lines.joined(separator: "\n"))
            }
        }
    }

    /// `entitle device logout`: signs the device out.
    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign the device out of its TV provider.")

        @OptionGroup var options: DeviceOptions

        func run() async throws {
            try await DeviceRunner(options: options, command: "logout").run { enabler, output in
                guard let id = await enabler.authenticatedMVPD() else {
                    output.success(["signedOut": true, "wasSignedIn": false], text: "Not signed in; nothing to do.")
                    return
                }
                let name = await Device.displayName(of: id, enabler)
                try await enabler.signOut()
                output.success(["signedOut": true, "wasSignedIn": true, "mvpd": id], text: "Signed out of \(name).")
            }
        }
    }

    /// The display name of MVPD `id`, or the id when the provider list does not have it.
    static func displayName(of id: String, _ enabler: AccessEnabler) async -> String {
        let mvpds = (try? await enabler.providers()) ?? []
        return mvpds.first { $0.ID == id }?.displayName ?? id
    }

    /// The notable properties of an MVPD.
    static func flags(of mvpd: MVPD) -> [String] {
        var flags: [String] = []
        if mvpd.isTempPass { flags.append("temppass") }
        if mvpd.enablePlatformServices { flags.append("platform-sso") }
        if let boarding = mvpd.boardingStatus { flags.append("boarding:" + boarding.lowercased()) }
        if mvpd.requiresSafariViewController { flags.append("safari-view-controller") }
        return flags
    }
}
