import ArgumentParser
import Foundation

/// The `entitle` command line: the service, the device client, the token verifier, administration and benchmarks.
@main
struct Entitle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitle",
        abstract: "TV Everywhere authentication: service, device client, token verifier, administration and benchmarks.",
        subcommands: [Serve.self, Admin.self, Verify.self, Bench.self, Device.self]
    )

    /// Parses and runs a command; `serve` first takes its settings from the environment and its configuration file
    /// (``ServeConfiguration``).
    static func main() async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "serve" {
            do {
                let resolved = try ServeConfiguration.resolve(
                    arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
                arguments = ["serve"] + resolved.arguments
            } catch {
                FileHandle.standardError.write(Data("entitle serve: \(error)\n".utf8))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
