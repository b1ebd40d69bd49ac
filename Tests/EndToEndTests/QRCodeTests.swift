import ChildProcess
import Foundation
import TerminalQR
import Testing

/// The QR codes (libqrencode through ``QRCode``), checked by an independent decoder: symbols are rendered to PBM images and read back with
/// `zbarimg` (Debian `zbar-tools`). Without zbarimg these tests are skipped locally and fail in CI (`CI=true`).
@Suite struct QRCodeTests {
    static let zbarimg = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let mustRun = zbarimg != nil || ProcessInfo.processInfo.environment["CI"] == "true"

    /// Decodes a PBM image with zbarimg.
    func decode(_ pbm: String) throws -> String {
        guard let zbarimg = Self.zbarimg else { throw QRTestError("zbarimg is missing: install Debian zbar-tools") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString).pbm")
        try pbm.write(to: file, atomically: true, encoding: .ascii)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = file.path + ".txt"
        defer { try? FileManager.default.removeItem(atPath: output) }
        let process = try ChildProcess(
            executable: zbarimg, arguments: ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", file.path], standardOutput: output)
        let status = process.waitUntilExit()
        guard status == 0 else { throw QRTestError("zbarimg found no symbol (status \(status))") }
        var text = try ChildProcess.readFile(output)
        if text.hasSuffix("\n") { text.removeLast() }
        return text
    }

    /// A payload of `count` URL-ish ASCII characters.
    func payload(_ count: Int) -> String {
        let alphabet = Array("http://127.0.0.1:8080/activate?code=ABCDEFGHJKLMNPQRSTUVWXYZ23456789abcdefghijkmnopqrstuvwxyz-_.~")
        return String((0..<count).map { alphabet[($0 * 7 + $0 / 3) % alphabet.count] })
    }

    @Test(.enabled(if: mustRun)) func activationURLDecodes() throws {
        let url = "http://127.0.0.1:8080/activate?code=K7QX2M9P"
        let medium = try QRCode(text: url)
        #expect(medium.version == 4)
        #expect(try decode(medium.pbm()) == url)
        let low = try QRCode(text: url, errorCorrection: .low)
        #expect(low.version == 3)
        #expect(try decode(low.pbm()) == url)
    }

    @Test(.enabled(if: mustRun), arguments: [QRCode.ErrorCorrection.low, .medium])
    func everyVersionDecodes(level: QRCode.ErrorCorrection) throws {
        for version in 1...10 {
            // The longest payload that still fits this version.
            let capacity = (1...300).last { QRCode.fits($0, version: version, level: level) } ?? 0
            let text = payload(capacity)
            let code = try QRCode(text: text, errorCorrection: level)
            #expect(code.version == version)
            #expect(code.size == 17 + 4 * version)
            #expect(try decode(code.pbm()) == text, "version \(version)")
        }
    }

    @Test(.enabled(if: mustRun)) func terminalDrawingIsTheSameSymbol() throws {
        let url = "http://192.168.1.20:8080/activate?code=ZX4RT7WQ"
        let code = try QRCode(text: url, errorCorrection: .low)
        for lightOnDark in [true, false] {
            let text = code.terminalString(quietZone: 2, lightOnDark: lightOnDark)
            // Read the half blocks back into modules.
            let side = code.size + 4
            var dark = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side + 1)
            for (row, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                #expect(line.count == side)
                for (column, glyph) in line.enumerated() {
                    let (upper, lower): (Bool, Bool) =
                        switch glyph {
                        case "\u{2588}": (true, true)
                        case "\u{2580}": (true, false)
                        case "\u{2584}": (false, true)
                        default: (false, false)
                        }
                    dark[row * 2][column] = upper != lightOnDark
                    dark[row * 2 + 1][column] = lower != lightOnDark
                }
            }
            for y in 0..<side {
                for x in 0..<side { #expect(dark[y][x] == code.isDark(x: x - 2, y: y - 2)) }
            }
            // And the screen image decodes.
            var pbm = "P1\n\((side + 4) * 4) \((side + 4) * 4)\n"
            for y in 0..<((side + 4) * 4) {
                pbm +=
                    (0..<((side + 4) * 4)).map { x in
                        let (mx, my) = (x / 4 - 2, y / 4 - 2)
                        return mx >= 0 && my >= 0 && mx < side && my < side && dark[my][mx] ? "1" : "0"
                    }.joined(separator: " ") + "\n"
            }
            #expect(try decode(pbm) == url)
        }
    }

    @Test func smallestVersionIsChosenAndOverlongDataIsRefused() throws {
        #expect(try QRCode(bytes: Array(repeating: 0x41, count: 14)).version == 1)
        #expect(try QRCode(bytes: Array(repeating: 0x41, count: 15)).version == 2)
        #expect(try QRCode(bytes: Array(repeating: 0x41, count: 271), errorCorrection: .low).version == 10)
        #expect(throws: QRCodeError.self) { try QRCode(bytes: Array(repeating: 0x41, count: 272), errorCorrection: .low) }
        #expect(throws: QRCodeError.self) { try QRCode(bytes: []) }
        // Finder patterns sit in three corners, the timing pattern alternates.
        let code = try QRCode(text: "x")
        let last = code.size - 1
        #expect(code.isDark(x: 0, y: 0) && code.isDark(x: last, y: 0) && code.isDark(x: 0, y: last))
        #expect(!code.isDark(x: 7, y: 7) && !code.isDark(x: last - 7, y: 7) && !code.isDark(x: 7, y: last - 7))
        #expect((8..<13).map { code.isDark(x: $0, y: 6) } == [true, false, true, false, true])
        #expect(code.isDark(x: 8, y: code.size - 8))
    }
}

struct QRTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
