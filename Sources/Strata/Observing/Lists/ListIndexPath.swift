import Foundation

/// A position in a monitored list: a section and an item within it. A plain (unsectioned) list
/// has one section, 0.
public struct ListIndexPath: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The section.
    public let section: Int
    /// The item within the section.
    public let item: Int

    /// The position of `item` in `section`.
    public init(item: Int, section: Int) {
        self.section = section
        self.item = item
    }

    /// Section first, then item.
    public static func < (lhs: ListIndexPath, rhs: ListIndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// Foundation's form, for table and collection views: `[section, item]`.
    public var indexPath: IndexPath { IndexPath(indexes: [section, item]) }

    /// `[0, 3]`.
    public var description: String { "[\(section), \(item)]" }
}
