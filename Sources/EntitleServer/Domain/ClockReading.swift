/// A part of the service that reads the service's injected clock.
protocol ClockReading {
    var clock: any ServiceClock { get }
}

extension ClockReading {
    /// The current time in ms.
    var now: Int64 { clock.nowMilliseconds() }
}
