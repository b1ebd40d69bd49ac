import EntitleCore

/// Where the service reads the time: the package's one clock (``EntitleCore/EntitleClock``), injected so tests can move
/// it (``EntitleCore/ManualClock``).
package typealias ServiceClock = EntitleClock
