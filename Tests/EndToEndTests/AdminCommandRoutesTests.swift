import EntitleHTTP
import EntitleTesting
import Foundation
import Testing

/// The admin API does everything `entitle admin` does: every command of the built binary's own command tree is in
/// ``AdminCommandRoutes`` (a new command without an entry fails here), every route named there is served and
/// documented in `/openapi.json`, and `docs/operator-guide.md` shows each one.
@Suite struct AdminCommandRoutesTests {
    /// The leaf commands under `entitle admin`, as "mvpd add", read from the binary's `--experimental-dump-help`.
    static func adminCommands() async throws -> Set<String> {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-admin-tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let process = try DeviceProcess(
            binary: try DeviceCommandTests.binary(), arguments: ["admin", "--experimental-dump-help"], directory: directory)
        defer { process.stop() }
        let result = try await process.finish(timeout: DeviceProcess.patience)
        let dump = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stderr)")
        var leaves = Set<String>()
        func walk(_ command: [String: Any], path: [String]) {
            let subcommands = (command["subcommands"] as? [[String: Any]] ?? []).filter { $0["commandName"] as? String != "help" }
            if subcommands.isEmpty, !path.isEmpty { leaves.insert(path.joined(separator: " ")) }
            for sub in subcommands { walk(sub, path: path + [sub["commandName"] as? String ?? "?"]) }
        }
        walk(try #require(dump["command"] as? [String: Any]), path: [])
        return leaves
    }

    @Test func everyAdminCommandHasItsRouteServedAndDocumented() async throws {
        let commands = try await Self.adminCommands()
        #expect(commands.count >= 50, "\(commands.sorted())")
        let mapped = Set(AdminCommandRoutes.all.keys)
        #expect(
            commands.subtracting(mapped).isEmpty,
            "entitle admin commands without an admin API route in AdminCommandRoutes: \(commands.subtracting(mapped).sorted())")
        #expect(
            mapped.subtracting(commands).isEmpty, "AdminCommandRoutes names commands the CLI does not have: \(mapped.subtracting(commands).sorted())")

        let routes =
            AdminCommandRoutes.all.values.compactMap { route -> String? in
                if case .api(let route) = route { return route }
                return nil
            } + AdminCommandRoutes.apiOnly.keys
        let guide = try String(contentsOf: DeviceCommandTests.packageRoot.appendingPathComponent("docs/operator-guide.md"), encoding: .utf8)
        try await RouterService.run { host in
            let served = Set(host.host.buildRouter().routes.map { "\($0.method.rawValue) \(Self.openAPIPath($0.path.description))" })
            let document = try #require(try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            for route in routes {
                let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
                #expect(served.contains(route), "\(route) is not served")
                #expect(paths[parts[1]]?[parts[0].lowercased()] != nil, "\(route) is not in openapi.json")
                #expect(guide.contains("`\(route)`"), "\(route) is not in docs/operator-guide.md")
            }
        }
        // Each command that writes has a route that writes (a GET would not do what it does).
        for (command, route) in AdminCommandRoutes.all {
            guard case .api(let route) = route else { continue }
            let reads =
                ["list", "show", "media-token-algorithms"].contains(command.split(separator: " ").last.map(String.init) ?? "")
                || command == "report" || command == "catalog export"
            #expect(route.hasPrefix("GET ") == reads, "\(command) → \(route)")
        }
    }

    /// `/admin/api/:id/x` becomes `/admin/api/{id}/x`.
    static func openAPIPath(_ routerPath: String) -> String {
        let path = routerPath.hasPrefix("/") ? routerPath : "/" + routerPath
        return path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix(":") ? "{\(segment.dropFirst())}" : String(segment)
        }.joined(separator: "/")
    }
}
