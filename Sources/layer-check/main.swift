import Foundation

// layer-check STAMP [--forbid MODULE]... FILE...: prints a compiler-style error for every `import` of a forbidden module
// in FILEs and exits 1; otherwise writes the (empty) Swift file STAMP. Run by the LayerCheck build plugin.
var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    FileHandle.standardError.write(Data("usage: layer-check STAMP [--forbid MODULE]... FILE...\n".utf8))
    exit(2)
}
let stamp = arguments.removeFirst()
var forbidden: Set<String> = []
var files: [String] = []
while let argument = arguments.first {
    arguments.removeFirst()
    if argument == "--forbid", let module = arguments.first {
        forbidden.insert(module)
        arguments.removeFirst()
    } else {
        files.append(argument)
    }
}

/// The module an `import` line names (`import X`, `@testable import X`, `import struct X.Y`), nil for other lines.
func importedModule(_ line: Substring) -> String? {
    var words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })[...]
    while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "private", "fileprivate"].contains(first) {
        words = words.dropFirst()
    }
    guard words.first == "import" else { return nil }
    words = words.dropFirst()
    if let kind = words.first, ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"].contains(kind) {
        words = words.dropFirst()
    }
    return words.first.map { String($0.split(separator: ".").first ?? $0) }
}

var violations = 0
for file in files {
    guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
        guard let module = importedModule(line), forbidden.contains(module) else { continue }
        violations += 1
        FileHandle.standardError.write(
            Data(
                "\(file):\(index + 1):1: error: this layer must not import \(module) (docs/architecture.md: the layers and what each may use)\n"
                    .utf8))
    }
}
guard violations == 0 else { exit(1) }
try Data("// Written by layer-check: no forbidden import.\n".utf8).write(to: URL(fileURLWithPath: stamp))
