import EntitleModel
import EntitleStorage

/// A part of the service that reads the service's injected clock.
package protocol ClockReading {
    var clock: any ServiceClock { get }
}

extension ClockReading {
    /// The current time in ms.
    package var now: Int64 { clock.nowMilliseconds() }
}
