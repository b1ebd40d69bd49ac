import EntitleCore
import EntitleDomain
import EntitleModel
import Hummingbird

/// `GET /api/v2/{serviceProvider}/configuration`.
package struct ConfigurationController {
    /// The requestor part of the answer.
    package let configurations: RequestorConfigurations

    /// Adds the route to the authenticated `/api/v2/{sp}` group (the caller is in the context).
    package func addRoutes(to group: RouterGroup<CallerContext>) {
        group.get("configuration") { _, context in
            let caller = context.caller
            let requestor = caller.requestor
            // The requestor part (its MVPDs) is encoded once per catalog change; the device part on each call.
            let requestorJSON = try await configurations.json(for: requestor)
            let info = caller.deviceInfo
            // Byte for byte what JSONCoding.encode(ConfigurationResponse) writes (sorted keys).
            let body =
                "{\"clientType\":" + FastJSON.string(info?.osName.map { _ in "native" } ?? "unknown")
                + ",\"device\":" + FastJSON.string(info?.primaryHardwareType ?? "unknown")
                + ",\"os\":" + FastJSON.string(info?.osName ?? "Unknown")
                + ",\"requestor\":" + requestorJSON + "}"
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }

    /// Creates the value from each of its stored properties.
    package init(configurations: RequestorConfigurations) {
        self.configurations = configurations
    }
}
