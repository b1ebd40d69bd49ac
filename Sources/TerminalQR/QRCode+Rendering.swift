extension QRCode {
    /// The symbol drawn with Unicode half blocks, two module rows per text line, with a quiet zone of `quietZone`
    /// modules. With `lightOnDark` (the default, for terminals with a dark background) the light modules are the
    /// drawn glyphs, so the code shows dark-on-light on screen; otherwise the dark modules are drawn.
    package func terminalString(quietZone: Int = 2, lightOnDark: Bool = true) -> String {
        let range = -quietZone..<(size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = ""
            for x in range {
                let upper = isDark(x: x, y: top) != lightOnDark
                let lower = top + 1 < range.upperBound ? isDark(x: x, y: top + 1) != lightOnDark : false
                switch (upper, lower) {
                case (true, true): line += "\u{2588}"
                case (true, false): line += "\u{2580}"
                case (false, true): line += "\u{2584}"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// A plain PBM (P1) image: `scale` pixels per module, `quietZone` light modules around, 1 = dark.
    package func pbm(scale: Int = 4, quietZone: Int = 4) -> String {
        let side = (size + 2 * quietZone) * scale
        var text = "P1\n\(side) \(side)\n"
        for row in 0..<side {
            let y = row / scale - quietZone
            var line = ""
            line.reserveCapacity(side * 2)
            for column in 0..<side {
                line += isDark(x: column / scale - quietZone, y: y) ? "1 " : "0 "
            }
            text += line + "\n"
        }
        return text
    }
}
