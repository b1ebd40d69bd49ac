/// The module grid of a QR symbol while it is built: function patterns, codeword placement, masks, format and
/// version information, and the penalty score used to choose the mask.
struct QRMatrix {
    let version: Int
    let size: Int
    var modules: [Bool]
    var isFunction: [Bool]

    init(version: Int) {
        self.version = version
        size = 17 + 4 * version
        modules = Array(repeating: false, count: size * size)
        isFunction = Array(repeating: false, count: size * size)
    }

    subscript(x: Int, y: Int) -> Bool {
        get { modules[y * size + x] }
        set { modules[y * size + x] = newValue }
    }

    mutating func setFunction(_ x: Int, _ y: Int, _ dark: Bool) {
        modules[y * size + x] = dark
        isFunction[y * size + x] = true
    }

    /// Centres of the alignment patterns (versions 2–10).
    static func alignmentPositions(version: Int) -> [Int] {
        switch version {
        case 1: return []
        case 2...6: return [6, 10 + 4 * version]
        default: return [6, [22, 24, 26, 28][version - 7], [38, 42, 46, 50][version - 7]]
        }
    }

    mutating func drawFunctionPatterns() {
        for index in 0..<size {
            setFunction(6, index, index % 2 == 0)
            setFunction(index, 6, index % 2 == 0)
        }
        drawFinder(3, 3)
        drawFinder(size - 4, 3)
        drawFinder(3, size - 4)
        let positions = Self.alignmentPositions(version: version)
        let last = positions.count - 1
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() where !((i == 0 && j == 0) || (i == 0 && j == last) || (i == last && j == 0)) {
                for dy in -2...2 {
                    for dx in -2...2 { setFunction(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(level: .medium, mask: 0)
        drawVersion()
    }

    private mutating func drawFinder(_ x: Int, _ y: Int) {
        for dy in -4...4 {
            for dx in -4...4 {
                let (xx, yy) = (x + dx, y + dy)
                guard xx >= 0, yy >= 0, xx < size, yy < size else { continue }
                let distance = max(abs(dx), abs(dy))
                setFunction(xx, yy, distance != 2 && distance != 4)
            }
        }
    }

    /// The 15 format bits (level and mask, BCH-protected, masked with 0x5412) in both copies, plus the dark module.
    mutating func drawFormatBits(level: QRCode.ErrorCorrection, mask: Int) {
        let data = level.formatBits << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { setFunction(8, index, bit(index)) }
        setFunction(8, 7, bit(6))
        setFunction(8, 8, bit(7))
        setFunction(7, 8, bit(8))
        for index in 9..<15 { setFunction(14 - index, 8, bit(index)) }
        for index in 0..<8 { setFunction(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { setFunction(8, size - 15 + index, bit(index)) }
        setFunction(8, size - 8, true)
    }

    /// The 18 version bits (versions 7 and up) in both corners.
    private mutating func drawVersion() {
        guard version >= 7 else { return }
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for index in 0..<18 {
            let dark = (bits >> index) & 1 == 1
            let (a, b) = (size - 11 + index % 3, index / 3)
            setFunction(a, b, dark)
            setFunction(b, a, dark)
        }
    }

    /// Places the codewords in the zigzag of two-module columns, right to left, skipping function modules.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var bitIndex = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            let upward = (right + 1) & 2 == 0
            for vertical in 0..<size {
                for offset in 0..<2 {
                    let x = right - offset
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y * size + x], bitIndex < codewords.count * 8 else { continue }
                    self[x, y] = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 == 1
                    bitIndex += 1
                }
            }
            right -= 2
        }
    }

    /// Inverts the data modules where mask `mask`'s condition holds (applying it twice undoes it).
    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y * size + x] {
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert { self[x, y].toggle() }
            }
        }
    }

    /// The penalty of ISO/IEC 18004 §7.8.3: runs of five or more (N1 = 3), 2×2 blocks (N2 = 3), finder-like
    /// 1:1:3:1:1 patterns with four light modules on a side (N3 = 40), and dark/light imbalance (N4 = 10).
    func penalty() -> Int {
        var score = 0
        let finderA: [Bool] = [true, false, true, true, true, false, true, false, false, false, false]
        let finderB: [Bool] = finderA.reversed()
        for line in 0..<size {
            for horizontal in [true, false] {
                let cell: (Int) -> Bool = { horizontal ? self[$0, line] : self[line, $0] }
                var runColor = cell(0)
                var runLength = 1
                for index in 1..<size {
                    if cell(index) == runColor {
                        runLength += 1
                    } else {
                        if runLength >= 5 { score += 3 + runLength - 5 }
                        runColor = cell(index)
                        runLength = 1
                    }
                }
                if runLength >= 5 { score += 3 + runLength - 5 }
                for start in 0...(size - 11) {
                    let window = (0..<11).map { cell(start + $0) }
                    if window == finderA || window == finderB { score += 40 }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = self[x, y]
                if self[x + 1, y] == color && self[x, y + 1] == color && self[x + 1, y + 1] == color { score += 3 }
            }
        }
        let dark = modules.filter { $0 }.count
        let total = size * size
        score += abs(dark * 20 - total * 10) / total * 10
        return score
    }
}
