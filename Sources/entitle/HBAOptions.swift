import ArgumentParser
import EntitleDomain
import EntitleHTTP
import EntitleModel

/// `--hba-profile-ttl`, `--hba-deny-resource` and `--hba-allow-all-resources` of `entitle admin integration set`: what
/// the integration does with home-based (HBA) sign-ins.
struct HBAOptions: ParsableArguments {
    @Option(help: "How long home-based (HBA) sign-ins last, seconds (60 to 34560000); 0 removes it (they last as long as others).")
    var hbaProfileTTL: Int64?
    @Option(
        help: ArgumentHelp(
            "A resource home-based sign-ins are denied (authorization_denied_by_hba_policies); repeat for several.",
            discussion: "Replaces the integration's list. A plain channel id matches MRSS resources of that channel too."))
    var hbaDenyResource: [String] = []
    @Flag(help: "Home-based sign-ins are denied no resource (empties the list).") var hbaAllowAllResources = false

    /// Whether any of the options was given.
    var isGiven: Bool { hbaProfileTTL != nil || !hbaDenyResource.isEmpty || hbaAllowAllResources }

    func validate() throws {
        if hbaAllowAllResources && !hbaDenyResource.isEmpty {
            throw ValidationError("--hba-allow-all-resources and --hba-deny-resource exclude each other.")
        }
    }

    /// Applies the options to the integration of `requestor` with `mvpd` (recorded); nothing when none was given.
    func apply(_ service: EntitleService, requestor: String, mvpd: String) async throws {
        guard isGiven else { return }
        let denied: [String]? = hbaAllowAllResources ? [] : (hbaDenyResource.isEmpty ? nil : hbaDenyResource)
        try await service.integrations.setHBAPolicy(
            requestor: requestor, mvpd: mvpd, .init(profileTTLSeconds: hbaProfileTTL, deniedResources: denied), actor: Admin.cliActor)
    }
}
