import Foundation
import Strata
import StrataSyncCore

/// How a synced value changes when a migration step changed its attribute's type: up (to the
/// newer type) as the step converts stored values, and down (back to the older type), which
/// fails for a value the older type cannot hold exactly (an Int32 over Int16's range, a Double no
/// Float holds). Only the changes a migration step infers have one.
struct SyncValueConversion: Sendable, Equatable {
    /// The older type.
    let old: AttributeType
    /// The newer type.
    let new: AttributeType

    /// The conversion between two types, or nil when a migration step would not infer it (the
    /// runtime's rule: only changes that lose nothing going up).
    init?(from old: AttributeType, to new: AttributeType) {
        guard AttributeConversion(from: old, to: new) != nil else { return nil }
        self.old = old
        self.new = new
    }

    /// The values an integer type holds.
    static func integerRange(_ type: AttributeType) -> ClosedRange<Int64>? {
        switch type {
        case .bool: 0...1
        case .int16: Int64(Int16.min)...Int64(Int16.max)
        case .int32: Int64(Int32.min)...Int64(Int32.max)
        case .int64, .int: Int64.min...Int64.max
        default: nil
        }
    }

    /// A value of the older type as the newer type holds it.
    func up(_ value: SyncValue) -> SyncValue {
        guard old != new else { return value }
        switch value {
        case .integer(let number) where [.double, .float].contains(new): return .real(Double(number))
        case .integer(let number) where [.string, .decimal].contains(new): return .text(String(number))
        default: return value
        }
    }

    /// A value of the newer type as the older type holds it; nil when it cannot hold it exactly.
    func down(_ value: SyncValue) -> SyncValue? {
        guard old != new, value != .null else { return value }
        if let range = Self.integerRange(old) {
            switch value {
            case .integer(let number): return range.contains(number) ? value : nil
            case .real(let number):
                guard let whole = Int64(exactly: number), range.contains(whole) else { return nil }
                return .integer(whole)
            case .text(let text):
                guard let whole = Int64(text), range.contains(whole), String(whole) == text else { return nil }
                return .integer(whole)
            default: return nil
            }
        }
        switch (old, value) {
        case (.float, .real(let number)): return Double(Float(number)) == number || number.isNaN ? value : nil
        case (.date, .real), (.double, .real): return value
        case (.decimal, .text(let text)): return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil ? value : nil
        case (.url, .text(let text)): return URL(string: text) != nil ? value : nil
        case (.uuid, .blob(let bytes)): return bytes.count == 16 ? value : nil
        default: return nil
        }
    }
}
