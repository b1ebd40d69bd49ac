/// A minute and a key: one row of the reports table.
package struct ReportMinute: Hashable, Sendable {
    /// The minute's start, ms since 1970.
    package var start: Int64
    /// Who the figures are for.
    package var key: ReportKey

    /// Creates the value from each of its stored properties.
    package init(start: Int64, key: ReportKey) {
        self.start = start
        self.key = key
    }
}
