/// A QR code (ISO/IEC 18004, Model 2): byte mode, error correction level L or M, versions 1–10, the mask with the
/// lowest penalty score of all eight. Enough for activation URLs of up to 213 bytes at level M.
public struct QRCode: Sendable, Equatable {
    /// How much of the symbol can be damaged and still decoded.
    public struct ErrorCorrection: Sendable, Hashable {
        /// The two format bits of the level (L = 01, M = 00).
        let formatBits: Int
        /// The index into the block tables.
        let index: Int
        /// Level L: about 7 % of the codewords can be restored.
        public static let low = ErrorCorrection(formatBits: 1, index: 0)
        /// Level M: about 15 % of the codewords can be restored.
        public static let medium = ErrorCorrection(formatBits: 0, index: 1)
    }

    /// The version (1–10): the symbol is `17 + 4 × version` modules wide.
    public let version: Int
    /// The error-correction level.
    public let errorCorrection: ErrorCorrection
    /// The mask (0–7) that was applied.
    public let mask: Int
    /// Modules per side.
    public let size: Int
    /// Dark (true) or light modules, row by row.
    public let modules: [Bool]

    /// Whether the module at column `x`, row `y` is dark; outside the symbol (the quiet zone) is light.
    public func isDark(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < size && y < size && modules[y * size + x]
    }

    /// Encodes `bytes` in byte mode in the smallest version that fits, choosing the best mask unless `mask` forces one.
    public init(bytes: [UInt8], errorCorrection: ErrorCorrection = .medium, mask forcedMask: Int? = nil) throws(QRCodeError) {
        guard let version = (1...10).first(where: { Self.fits(bytes.count, version: $0, level: errorCorrection) }) else {
            throw QRCodeError(code: .dataTooLong, message: "\(bytes.count) bytes do not fit in a version 10 symbol")
        }
        if let forcedMask, !(0...7).contains(forcedMask) {
            throw QRCodeError(code: .invalidMask, message: "mask must be 0...7")
        }
        let codewords = Self.codewords(bytes, version: version, level: errorCorrection)
        var matrix = QRMatrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.drawCodewords(codewords)
        var best = matrix
        var bestMask = 0
        var bestPenalty = Int.max
        for candidate in forcedMask.map({ [$0] }) ?? Array(0...7) {
            var trial = matrix
            trial.applyMask(candidate)
            trial.drawFormatBits(level: errorCorrection, mask: candidate)
            let penalty = trial.penalty()
            if penalty < bestPenalty {
                best = trial
                bestMask = candidate
                bestPenalty = penalty
            }
        }
        self.version = version
        self.errorCorrection = errorCorrection
        self.mask = bestMask
        self.size = best.size
        self.modules = best.modules
    }

    /// Encodes the UTF-8 bytes of `text`.
    public init(text: String, errorCorrection: ErrorCorrection = .medium) throws(QRCodeError) {
        try self.init(bytes: Array(text.utf8), errorCorrection: errorCorrection)
    }

    // MARK: - Data codewords

    /// Error-correction codewords per block and data codewords of each block, per version (1–10) and level (L, M).
    static let blocks: [[(ec: Int, data: [Int])]] = [
        [(7, [19]), (10, [16])],
        [(10, [34]), (16, [28])],
        [(15, [55]), (26, [44])],
        [(20, [80]), (18, [32, 32])],
        [(26, [108]), (24, [43, 43])],
        [(18, [68, 68]), (16, [27, 27, 27, 27])],
        [(20, [78, 78]), (18, [31, 31, 31, 31])],
        [(24, [97, 97]), (22, [38, 38, 39, 39])],
        [(30, [116, 116]), (22, [36, 36, 36, 37, 37])],
        [(18, [68, 68, 69, 69]), (26, [43, 43, 43, 43, 44])],
    ]

    static func dataCapacity(version: Int, level: ErrorCorrection) -> Int {
        blocks[version - 1][level.index].data.reduce(0, +)
    }

    static func countBits(version: Int) -> Int { version < 10 ? 8 : 16 }

    static func fits(_ count: Int, version: Int, level: ErrorCorrection) -> Bool {
        4 + countBits(version: version) + 8 * count <= 8 * dataCapacity(version: version, level: level)
    }

    /// The final sequence: data blocks with their Reed–Solomon codewords, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int, level: ErrorCorrection) -> [UInt8] {
        let capacity = dataCapacity(version: version, level: level)
        var bits = BitBuffer()
        bits.append(0b0100, count: 4)
        bits.append(bytes.count, count: countBits(version: version))
        for byte in bytes { bits.append(Int(byte), count: 8) }
        bits.append(0, count: min(4, capacity * 8 - bits.count))
        bits.append(0, count: (8 - bits.count % 8) % 8)
        var data = bits.bytes
        var pad: UInt8 = 0xEC
        while data.count < capacity {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let layout = blocks[version - 1][level.index]
        let divisor = ReedSolomon.generator(degree: layout.ec)
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for length in layout.data {
            dataBlocks.append(Array(data[offset..<offset + length]))
            offset += length
        }
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, divisor: divisor) }
        var result: [UInt8] = []
        for index in 0..<(layout.data.max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<layout.ec {
            for block in ecBlocks { result.append(block[index]) }
        }
        return result
    }
}

/// Why a QR code could not be made.
public struct QRCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure; an open set.
    public struct Code: Sendable, Hashable {
        /// The name.
        public let rawValue: String
        /// Creates a code.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        /// The data is longer than a version 10 symbol holds.
        public static let dataTooLong = Code("data_too_long")
        /// A forced mask is outside 0...7.
        public static let invalidMask = Code("invalid_mask")
    }

    /// The kind of failure.
    public let code: Code
    /// What went wrong.
    public let message: String
    /// Creates an error.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }
    /// The message.
    public var description: String { message }
}

/// Bits appended most significant first.
struct BitBuffer {
    private(set) var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func append(_ value: Int, count length: Int) {
        for shift in stride(from: length - 1, through: 0, by: -1) {
            if count % 8 == 0 { bytes.append(0) }
            if (value >> shift) & 1 == 1 { bytes[count / 8] |= 0x80 >> UInt8(count % 8) }
            count += 1
        }
    }
}

/// Reed–Solomon over GF(2⁸) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= ((Int(y) >> bit) & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// The coefficients (highest power first, leading 1 omitted) of ∏(x − αⁱ), i < degree.
    static func generator(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for index in 0..<degree {
                result[index] = multiply(result[index], root)
                if index + 1 < degree { result[index] ^= result[index + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    /// The error-correction codewords of `data`.
    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for index in result.indices { result[index] ^= multiply(divisor[index], factor) }
        }
        return result
    }
}
