import AccessEnabler
import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Device {
    /// `entitle device login`: second-screen sign-in — shows a code, its activation URL and QR code, and waits.
    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign in: show a registration code and QR code, and wait while the user activates it on another screen.")

        @OptionGroup var options: DeviceOptions

        @Option(help: "Sign in with this TV provider (skips the picker on the activation page).")
        var mvpd: String?

        @Flag(help: "Do not draw the QR code.")
        var noQR = false

        @Flag(help: "Draw the QR code for a terminal with a light background.")
        var lightTerminal = false

        func run() async throws {
            try await DeviceRunner(options: options, command: "login").run { enabler, output in
                if let current = await enabler.authenticatedMVPD() {
                    let name = await Device.displayName(of: current, enabler)
                    output.success(
                        ["mvpd": current, "displayName": name, "alreadySignedIn": true],
                        text: "Already signed in with \(name). Run `entitle device logout` to switch.")
                    return
                }
                // With --json the code and countdown go to standard error, so standard output holds one JSON object.
                let screen = options.json ? FileHandle.standardError : FileHandle.standardOutput
                let terminal = DeviceTerminal(
                    handle: screen, isTTY: isatty(options.json ? 2 : 1) != 0, drawQR: !noQR,
                    lightOnDark: !lightTerminal)
                let fallback = options.serverBase + "/activate"
                let shown = AsyncStream<RegistrationCode>.makeStream()
                let login = Task { [mvpd] () async throws -> String in
                    try await enabler.authenticateWithSecondScreen(mvpd: mvpd) { shown.continuation.yield($0) }
                }
                let interrupt = DeviceInterrupt { login.cancel() }
                let display = Task {
                    await withTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for await code in shown.stream {
                                terminal.show(code, url: DeviceTerminal.activationLink(code, fallback: fallback))
                            }
                        }
                        group.addTask { await terminal.runCountdown(now: { Date() }) }
                        _ = await group.next()
                        group.cancelAll()
                    }
                }
                let result = await login.result
                interrupt.stop()
                shown.continuation.finish()
                display.cancel()
                await display.value
                terminal.finish()
                switch result {
                case .success(let id):
                    let name = await Device.displayName(of: id, enabler)
                    output.success(["mvpd": id, "displayName": name, "alreadySignedIn": false], text: "Signed in with \(name)")
                case .failure(let error):
                    if interrupt.fired { throw output.failure(AccessEnablerError(code: .cancelled, message: "interrupted"), command: "login") }
                    throw error
                }
            }
        }
    }
}
