import AccessEnabler
import Dispatch
import EntitleCore
import Foundation
import Synchronization
import TerminalQR
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `entitle device login` shows while it waits: the registration code, the activation URL, its QR code, and a
/// countdown to the code's expiry — one rewritten line on a terminal, a plain line every 30 seconds otherwise.
final class DeviceTerminal: Sendable {
    private struct State {
        var code: RegistrationCode?
        var url = ""
        var statusLineOpen = false
    }

    private let handle: FileHandle
    private let isTTY: Bool
    private let drawQR: Bool
    private let lightOnDark: Bool
    private let state = Mutex(State())

    /// A display on `handle`; `isTTY` chooses the rewritten countdown line.
    init(handle: FileHandle, isTTY: Bool, drawQR: Bool, lightOnDark: Bool) {
        self.handle = handle
        self.isTTY = isTTY
        self.drawQR = drawQR
        self.lightOnDark = lightOnDark
    }

    /// `{activationURL}?code=CODE`.
    static func activationLink(_ code: RegistrationCode, fallback: String) -> String {
        let base = code.activationURL.isEmpty ? fallback : code.activationURL
        let escaped = FormURLEncoding.escape(code.code)
        return base + (base.contains("?") ? "&" : "?") + "code=" + escaped
    }

    /// Shows a (new) registration code.
    func show(_ code: RegistrationCode, url: String) {
        var text = """
            To sign in, open this page on your phone or computer\(drawQR ? " (or scan the QR code)" : ""):

              Activation URL:    \(url)
              Registration code: \(code.code)


            """
        if drawQR, let qr = try? QRCode(text: url, errorCorrection: .low) {
            text += qr.terminalString(quietZone: 2, lightOnDark: lightOnDark) + "\n\n"
        }
        state.withLock { state in
            if state.statusLineOpen { text = "\n" + text }
            state.statusLineOpen = false
            state.code = code
            state.url = url
        }
        handle.write(Data(text.utf8))
    }

    /// Ticks the countdown until the task is cancelled.
    func runCountdown(now: @Sendable () -> Date) async {
        var lastPlain: Date?
        while !Task.isCancelled {
            let date = now()
            let code = state.withLock { $0.code }
            if let code {
                let line = Self.countdownLine(notAfter: code.notAfter, now: date)
                if isTTY {
                    state.withLock { $0.statusLineOpen = true }
                    handle.write(Data(("\r\u{1B}[2K" + line).utf8))
                } else if lastPlain.map({ date.timeIntervalSince($0) >= 30 }) ?? true {
                    lastPlain = date
                    handle.write(Data((line + "\n").utf8))
                }
            }
            try? await Task.sleep(for: .seconds(1))
        }
    }

    /// Ends the countdown line.
    func finish() {
        let open = state.withLock { state in
            defer { state.statusLineOpen = false }
            return state.statusLineOpen
        }
        if open { handle.write(Data("\n".utf8)) }
    }

    /// "Waiting for activation… 14:59 left (Ctrl-C to cancel)".
    static func countdownLine(notAfter: Date?, now: Date) -> String {
        guard let notAfter else { return "Waiting for activation… (Ctrl-C to cancel)" }
        let remaining = Int(notAfter.timeIntervalSince(now).rounded(.down))
        guard remaining > 0 else { return "The code has expired; waiting for a new one… (Ctrl-C to cancel)" }
        let left = String(format: "%d:%02d", remaining / 60, remaining % 60)
        return "Waiting for activation… \(left) left (Ctrl-C to cancel)"
    }
}

/// Runs a handler when SIGINT arrives (through a `DispatchSource`), instead of the default termination; a second
/// SIGINT exits at once with status 130.
final class DeviceInterrupt {
    private let source: any DispatchSourceSignal
    private let flag = DeviceFlag()

    /// Starts catching SIGINT.
    init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "entitle.device.signals"))
        let flag = flag
        source.setEventHandler {
            // A second Ctrl-C does not wait for the cancellation to reach the service.
            if flag.isSet { exit(DeviceOutput.interrupted) }
            flag.set()
            handler()
        }
        source.resume()
    }

    /// Whether SIGINT arrived.
    var fired: Bool { flag.isSet }

    /// Stops catching SIGINT.
    func stop() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}

/// A flag set once from any thread.
final class DeviceFlag: Sendable {
    private let value = Mutex(false)
    /// Sets the flag.
    func set() { value.withLock { $0 = true } }
    /// Whether it was set.
    var isSet: Bool { value.withLock { $0 } }
}
