import CQREncode

/// A QR code (ISO/IEC 18004, Model 2) made by libqrencode: byte mode, error correction level L or M, the smallest
/// version that fits, up to version 10 (213 bytes at level M, 271 at level L: an activation URL, drawn in a terminal).
package struct QRCode: Sendable, Equatable {
    /// How much of the symbol can be damaged and still decoded.
    package struct ErrorCorrection: Sendable, Hashable {
        /// libqrencode's level.
        let level: QRecLevel
        /// Level L: about 7 % of the codewords can be restored.
        package static let low = ErrorCorrection(level: QR_ECLEVEL_L)
        /// Level M: about 15 % of the codewords can be restored.
        package static let medium = ErrorCorrection(level: QR_ECLEVEL_M)
    }

    /// The largest version made: larger symbols do not fit a terminal.
    package static let maximumVersion = 10

    /// The version (1–10): the symbol is `17 + 4 × version` modules wide.
    package let version: Int
    /// The error-correction level.
    package let errorCorrection: ErrorCorrection
    /// Modules per side.
    package let size: Int
    /// Dark (true) or light modules, row by row.
    package let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    package func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// Encodes `bytes` in byte mode in the smallest version that fits.
    package init(bytes: [UInt8], errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        guard let symbol = Self.encode(bytes, level: errorCorrection) else {
            throw QRCodeError(code: .encodingFailed, message: "libqrencode could not encode \(bytes.count) bytes")
        }
        guard symbol.version <= Self.maximumVersion else {
            throw QRCodeError(code: .dataTooLong, message: "\(bytes.count) bytes do not fit in a version \(Self.maximumVersion) symbol")
        }
        self.version = symbol.version
        self.errorCorrection = errorCorrection
        self.size = symbol.size
        self.modules = symbol.modules
    }

    /// Encodes the UTF-8 bytes of `text`.
    package init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection)
    }

    /// Whether `count` bytes fit in a symbol of `version` at `level`.
    package static func fits(_ count: Int, version: Int, level: ErrorCorrection) -> Bool {
        guard let symbol = encode([UInt8](repeating: 0x41, count: count), level: level) else { return false }
        return symbol.version <= version
    }

    /// The symbol libqrencode makes for `bytes` (the smallest version, any size), or nil when it fails.
    static func encode(_ bytes: [UInt8], level: ErrorCorrection) -> (version: Int, size: Int, modules: [Bool])? {
        let symbol = bytes.withUnsafeBufferPointer { QRcode_encodeData(Int32($0.count), $0.baseAddress, 0, level.level) }
        guard let symbol else { return nil }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // Bit 0 of each module byte is the colour (1 = dark); the other bits say which pattern it belongs to.
        let modules = (0..<width * width).map { symbol.pointee.data[$0] & 1 == 1 }
        return (Int(symbol.pointee.version), width, modules)
    }
}

/// Why a QR code could not be made.
package struct QRCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; an open set.
    package struct Code: Sendable, Hashable {
        /// The name.
        package let rawValue: String
        /// Creates a code.
        package init(_ rawValue: String) { self.rawValue = rawValue }
        /// The data is longer than a version 10 symbol holds.
        package static let dataTooLong = Code("data_too_long")
        /// libqrencode failed (no data, out of memory, or data beyond version 40).
        package static let encodingFailed = Code("encoding_failed")
    }

    /// The kind of failure.
    package let code: Code
    /// What went wrong.
    package let message: String
    /// Creates an error.
    package init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
    /// The message.
    package var description: String { message }
}
