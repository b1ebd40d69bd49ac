import EntitleHost
import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel
import Foundation

/// `entitle bench profile-memory`: the resident memory the in-memory profiles take per signed-in device.
struct BenchProfileMemory: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile-memory",
        abstract: "Resident memory of the in-memory profiles, per signed-in device, at each device count given."
    )

    @Option(parsing: .upToNextOption, help: "Device counts to measure, one fresh cache each (e.g. 100000 1000000).")
    var devices: [Int] = [100_000, 1_000_000]

    func validate() throws {
        guard !devices.isEmpty, devices.allSatisfy({ $0 > 0 }) else { throw ValidationError("--devices takes positive counts.") }
    }

    func run() throws {
        print("devices      RSS before   RSS after   bytes/device")
        for count in devices {
            let result = DatabaseMaintenance.profileCacheMemory(devices: count)
            print(
                String(
                    format: "%-12d %7.1f MB %9.1f MB %12.0f", count, Double(result.residentBefore) / 1_048_576,
                    Double(result.residentAfter) / 1_048_576, result.bytesPerDevice))
        }
    }
}
