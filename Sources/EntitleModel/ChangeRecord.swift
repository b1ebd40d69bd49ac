import Foundation

/// One entry of the changes log: who changed what, when, and the values before and after (secrets never).
package struct ChangeRecord: Sendable, Codable, Equatable {
    /// Entry id (a UUID).
    package var id: String
    /// When, Unix milliseconds from the service clock.
    package var at: Int64
    /// Who: an operator's name, or `cli:<user>` for the CLI.
    package var actor: String
    /// What was done, such as `requestor.add`.
    package var action: String
    /// What it was done to, such as `MYNET`.
    package var target: String
    /// The settings before (JSON text), absent for a creation.
    package var valueBefore: String?
    /// The settings after (JSON text), absent for a removal.
    package var valueAfter: String?
    /// Why, in the operator's words (the console asks for it; the admin API takes `X-Change-Description`).
    package var description: String? = nil

    /// Creates the value from each of its stored properties.
    package init(
        id: String, at: Int64, actor: String, action: String, target: String, valueBefore: String? = nil, valueAfter: String? = nil,
        description: String? = nil
    ) {
        self.id = id
        self.at = at
        self.actor = actor
        self.action = action
        self.target = target
        self.valueBefore = valueBefore
        self.valueAfter = valueAfter
        self.description = description
    }
}
