/// Strict ISO 8601 dates for defaults, normalised to UTC without a calendar library, so the
/// canonical text is the same on every platform.
enum ISODate {
    /// `2024-05-01` → `2024-05-01T00:00:00Z`; `2024-05-01T14:30:00+02:00` → `2024-05-01T12:30:00Z`.
    static func canonical(_ text: String) -> String? {
        guard let (seconds, fraction) = parse(text) else { return nil }
        return format(seconds: seconds) + (fraction.isEmpty ? "" : "." + fraction) + "Z"
    }

    /// Whole seconds since 1970 (UTC) and the fraction digits, without trailing zeros.
    static func parse(_ text: String) -> (seconds: Int, fraction: String)? {
        let characters = Array(text)
        guard characters.count >= 10, let year = number(characters, 0, 4), characters[4] == "-",
              let month = number(characters, 5, 2), characters[7] == "-", let day = number(characters, 8, 2),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var seconds = daysFromCivil(year: year, month: month, day: day) * 86_400
        var fraction = ""
        if characters.count > 10 {
            guard characters.count >= 20, characters[10] == "T", let hour = number(characters, 11, 2), characters[13] == ":",
                  let minute = number(characters, 14, 2), characters[16] == ":", let second = number(characters, 17, 2),
                  hour < 24, minute < 60, second < 60 else { return nil }
            seconds += hour * 3600 + minute * 60 + second
            var index = 19
            if characters[index] == "." {
                index += 1
                let start = index
                while index < characters.count, characters[index].isASCII, characters[index].isNumber { index += 1 }
                guard index > start else { return nil }
                fraction = String(characters[start..<index])
                while fraction.last == "0" { fraction.removeLast() }
            }
            guard index < characters.count else { return nil }
            if characters[index] == "Z" {
                guard index + 1 == characters.count else { return nil }
            } else {
                guard characters[index] == "+" || characters[index] == "-", characters.count == index + 6,
                      let offsetHours = number(characters, index + 1, 2), characters[index + 3] == ":",
                      let offsetMinutes = number(characters, index + 4, 2), offsetHours < 24, offsetMinutes < 60 else { return nil }
                let offset = offsetHours * 3600 + offsetMinutes * 60
                seconds -= characters[index] == "+" ? offset : -offset
            }
        }
        return (seconds, fraction)
    }

    private static func number(_ characters: [Character], _ start: Int, _ length: Int) -> Int? {
        guard start + length <= characters.count else { return nil }
        let slice = characters[start..<(start + length)]
        guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(String(slice))
    }

    private static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    private static func daysIn(month: Int, year: Int) -> Int {
        [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func format(seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):\(pad(secondOfDay % 3600 / 60, 2)):\(pad(secondOfDay % 60, 2))"
    }
}

/// Dates in the canonical text of defaults, for tools that turn them into code.
public enum CanonicalDate {
    /// Seconds between 1970-01-01 and 2001-01-01, the reference date `Date` counts from.
    static let referenceDateOffset = 978_307_200

    /// Seconds since 2001-01-01T00:00:00Z (`timeIntervalSinceReferenceDate`) of a canonical default
    /// date, as an exact decimal literal (`736259400`, `0.1`, `-4.75`), so the generated `Date` is
    /// the one nearest the written instant; nil when the text is not a date.
    public static func referenceSecondsLiteral(_ canonical: String) -> String? {
        guard let (seconds, fraction) = ISODate.parse(canonical) else { return nil }
        return exactLiteral(seconds: seconds - referenceDateOffset, fraction: fraction)
    }

    /// `seconds + 0.fraction` written in decimal without rounding. `fraction` has no trailing zero.
    static func exactLiteral(seconds: Int, fraction: String) -> String {
        if fraction.isEmpty { return String(seconds) }
        if seconds >= 0 { return "\(seconds).\(fraction)" }
        // -5 + 0.25 is -(4 + 0.75): the fraction's ten's complement, digit by digit. The last digit
        // is not zero, so adding one to it never carries.
        var digits = fraction.compactMap(\.wholeNumberValue).map { 9 - $0 }
        digits[digits.count - 1] += 1
        return "-\(-seconds - 1)." + digits.map(String.init).joined()
    }
}
