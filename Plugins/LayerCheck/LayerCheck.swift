import Foundation
import PackagePlugin

/// Fails the build when a target imports a module its layer must not use, though it could reach that module through
/// its dependencies (SwiftPM's `--explicit-target-dependency-import-check` allows any module of the dependency
/// closure). The HTTP edge and the CLI work through the domain; only the domain and the host may touch storage.
@main
struct LayerCheck: BuildToolPlugin {
    /// The modules each target must not import.
    static let forbidden: [String: [String]] = [
        "EntitleModel": ["EntitleStorage", "EntitleDomain", "EntitleHTTP", "EntitleHost"],
        "EntitleStorage": ["EntitleDomain", "EntitleHTTP", "EntitleHost"],
        "EntitleDomain": ["EntitleHTTP", "EntitleHost"],
        "EntitleHTTP": ["EntitleStorage", "EntitleHost"],
        "entitle": ["EntitleStorage"],
    ]

    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget, let banned = Self.forbidden[target.name] else { return [] }
        let sources = target.sourceFiles(withSuffix: "swift").map(\.url)
        // An empty Swift file: the command's output, compiled into the target, so the check runs whenever a source changes.
        let stamp = context.pluginWorkDirectoryURL.appending(path: "LayerCheck.swift")
        return [
            .buildCommand(
                displayName: "Checking that \(target.name) imports none of \(banned.joined(separator: ", "))",
                executable: try context.tool(named: "layer-check").url,
                arguments: [stamp.path] + banned.flatMap { ["--forbid", $0] } + sources.map(\.path),
                inputFiles: sources, outputFiles: [stamp])
        ]
    }
}
