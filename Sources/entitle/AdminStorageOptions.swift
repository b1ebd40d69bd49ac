import ArgumentParser
import EntitleHost
import Foundation

/// The options of every `entitle admin` command: the storage it opens (as `serve` reads it) and the operator it acts as.
struct AdminStorageOptions: ParsableArguments {
    @OptionGroup var storage: StorageOptions

    @Option(
        name: .customLong("as-operator"),
        help: ArgumentHelp(
            "entitle admin: act as this operator account, with its role and scope, recorded under its name (env: ENTITLE_AS_OPERATOR).",
            discussion:
                "Without it the CLI reaches everything (it holds the database). With it, a read-only or scoped operator is refused what the admin API and the console refuse it (out_of_scope), and lists show what it may see.",
            valueName: "username"))
    var asOperator: String?

    /// `--as-operator` or `ENTITLE_AS_OPERATOR`; nil when neither is given.
    var actingOperator: String? {
        asOperator ?? ServeConfiguration.nonEmpty(ProcessInfo.processInfo.environment["ENTITLE_AS_OPERATOR"])
    }
}
