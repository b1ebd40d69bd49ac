import Foundation

/// xs:dateTime formatting and parsing (UTC), without Foundation formatters (fast, Sendable, deterministic).
enum SAMLTime {
    /// `2026-11-22T00:28:54Z` (whole seconds, UTC).
    static func format(_ date: Date) -> String {
        let total = Int64(floor(date.timeIntervalSince1970))
        var days = total / 86400
        var secs = total % 86400
        if secs < 0 { secs += 86400; days -= 1 }
        let (y, m, d) = civil(fromDays: days)
        func pad(_ v: Int64, _ w: Int) -> String {
            let s = String(v)
            return s.count >= w ? s : String(repeating: "0", count: w - s.count) + s
        }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))T\(pad(secs / 3600, 2)):\(pad(secs / 60 % 60, 2)):\(pad(secs % 60, 2))Z"
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]`; a missing zone is read as UTC.
    static func parse(_ text: String) -> Date? {
        let s = Array(text.trimmingCharacters(in: .whitespacesAndNewlines).utf8)
        var i = 0
        func number(_ count: Int) -> Int64? {
            guard i + count <= s.count else { return nil }
            var v: Int64 = 0
            for k in i..<(i + count) {
                let c = s[k]
                guard c >= 48, c <= 57 else { return nil }
                v = v * 10 + Int64(c - 48)
            }
            i += count
            return v
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }
        guard let y = number(4), expect(45), let mo = number(2), expect(45), let d = number(2),
            expect(84), let h = number(2), expect(58), let mi = number(2), expect(58), let se = number(2)
        else { return nil }
        guard (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, se < 61 else { return nil }
        var fraction = 0.0
        if i < s.count, s[i] == 46 {
            i += 1
            var scale = 0.1
            let start = i
            while i < s.count, s[i] >= 48, s[i] <= 57 {
                fraction += Double(s[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { return nil }
        }
        var offset: Int64 = 0
        if i < s.count {
            if s[i] == 90 {
                i += 1
            } else if s[i] == 43 || s[i] == 45 {
                let sign: Int64 = s[i] == 43 ? 1 : -1
                i += 1
                guard let oh = number(2), expect(58), let om = number(2) else { return nil }
                offset = sign * (oh * 3600 + om * 60)
            } else {
                return nil
            }
        }
        guard i == s.count else { return nil }
        let days = daysFromCivil(y, mo, d)
        let seconds = days * 86400 + h * 3600 + mi * 60 + se - offset
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    // Howard Hinnant's civil-from-days algorithms.
    private static func daysFromCivil(_ year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
