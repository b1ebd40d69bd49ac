import ArgumentParser

/// `entitle bench`: benchmarks, each reported as a ratio to a baseline measured in the same run.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmarks: authorization decisions vs /healthz (default), media-token verification vs raw RSA.",
        subcommands: [BenchDecisions.self, BenchVerifier.self, BenchPrepare.self, BenchProfileMemory.self],
        defaultSubcommand: BenchDecisions.self
    )
}
