import Foundation

/// Dates a source writes as ISO 8601 text: a date and time with a zone (`2024-05-01T12:30:00Z`,
/// `2024-05-01T12:30:00.250+02:00`) or a date alone (`2024-05-01`, midnight UTC), as
/// `ISO8601DateFormatter` reads them with internet date-time, fractional-second or full-date
/// options.
///
/// The usual forms (years 1601 to 9999, a valid day and time, up to three fraction digits, `Z` or
/// `±HH:MM`) are read here directly, to the same value the formatter gives (a test compares the
/// two over random dates); everything else is left to the formatter, so it decides what else is a
/// date. A formatter costs tens of microseconds to make, which would otherwise be paid per value.
enum ImportDateText {
    /// The date `text` writes, or nil when it is not an ISO 8601 date.
    static func date(_ text: String) -> Date? {
        if let date = usualForm(text) { return date }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        return formatter.date(from: text)
    }

    /// The date of text in one of the usual forms; nil for anything else (left to the formatter).
    static func usualForm(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes -> Date? in
            var reader = Reader(bytes: bytes)
            guard let year = reader.number(4), year >= 1601, reader.skip("-"), let month = reader.number(2), reader.skip("-"),
                  let day = reader.number(2), (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
            else { return nil }
            let days = daysSince1970(year: year, month: month, day: day)
            if reader.atEnd { return Date(timeIntervalSince1970: Double(days * 86_400)) }
            guard reader.skip("T"), let hour = reader.number(2), reader.skip(":"), let minute = reader.number(2), reader.skip(":"),
                  let second = reader.number(2), hour < 24, minute < 60, second < 60 else { return nil }
            var milliseconds = 0
            if reader.skip(".") {
                var digits = 0
                while let digit = reader.digit() {
                    guard digits < 3 else { return nil }
                    milliseconds = milliseconds * 10 + digit
                    digits += 1
                }
                guard digits > 0 else { return nil }
                for _ in digits..<3 { milliseconds *= 10 }
            }
            var offset = 0
            if !reader.skip("Z") {
                let sign: Int
                if reader.skip("+") { sign = 1 } else if reader.skip("-") { sign = -1 } else { return nil }
                guard let hours = reader.number(2), reader.skip(":"), let minutes = reader.number(2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3_600 + minutes * 60)
            }
            guard reader.atEnd else { return nil }
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
            // As the formatter computes it: whole milliseconds, then seconds.
            return Date(timeIntervalSince1970: Double(seconds * 1_000 + milliseconds) / 1_000)
        }
    }

    /// Days from 1970-01-01 to a day of the proleptic Gregorian calendar.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Reads ASCII digits and separators from the text's bytes.
    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        var atEnd: Bool { index == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(character.value) else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits as a number.
        mutating func number(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }
    }
}
