import ArgumentParser

/// The `entitle` command line: the service, the device client, the token verifier, administration and benchmarks.
@main
struct Entitle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entitle",
        abstract: "TV Everywhere authentication: service, device client, token verifier, administration and benchmarks.",
        subcommands: [Serve.self, Admin.self, Verify.self, Bench.self, Device.self]
    )
}
