/// Groups a monitored list into sections by the value of one attribute (or one reached through
/// to-one relationships): `From<Person>().sectionBy(\.city).orderBy(.ascending(\.name))`.
///
/// Sections follow the attribute's order, ascending unless the first sort key is the same
/// attribute descending; within a section the sort keys apply. A section's identifier is the
/// value as text; `sectionName` turns it into the name to show, and `sectionIndexTitle` into the
/// short title a table's side index shows for it (CoreStore's section index transformer):
///
/// ```swift
/// From<Person>().sectionBy(\.lastName, sectionIndexTitle: { $0.map { String($0.prefix(1)) } })
/// ```
public struct SectionBy<T: StrataObject>: Sendable {
    let path: PropertyPath
    let labels: SectionLabels

    /// Sections by the value of `keyPath`; each named by its identifier, or by `sectionName`, and
    /// titled in a side index by `sectionIndexTitle` (no title without it, or when it returns nil).
    public init<V>(_ keyPath: KeyPath<T, V>, sectionName: (@Sendable (String?) -> String?)? = nil,
                   sectionIndexTitle: (@Sendable (String?) -> String?)? = nil) {
        path = Where<T>.path(keyPath)
        labels = SectionLabels(name: sectionName, indexTitle: sectionIndexTitle)
    }
}

/// What a list shows for a section beside its identifier: its name and its index title, each made
/// from the identifier by the app's closure when it gave one.
struct SectionLabels: Sendable {
    /// Makes a section's name from its identifier; nil names it by the identifier.
    let name: (@Sendable (String?) -> String?)?
    /// Makes a section's index title from its identifier; nil gives no titles.
    let indexTitle: (@Sendable (String?) -> String?)?

    /// A plain list's: the identifier as the name, no index title.
    static let plain = SectionLabels(name: nil, indexTitle: nil)
}

/// A fetch whose objects are grouped into sections, for `DataStack.monitorSectionedList`.
public struct SectionedFetchChain<T: StrataObject>: Sendable {
    /// The fetch, without sections.
    public let fetchChain: FetchChainBuilder<T>
    /// How objects are grouped.
    public let sectionBy: SectionBy<T>

    /// Adds a condition; several conditions must all hold.
    public func `where`(_ clause: Where<T>) -> SectionedFetchChain<T> {
        SectionedFetchChain(fetchChain: fetchChain.where(clause), sectionBy: sectionBy)
    }

    /// Appends sort keys, which order the objects within each section.
    public func orderBy(_ keys: OrderBy<T>.SortKey...) -> SectionedFetchChain<T> {
        SectionedFetchChain(fetchChain: fetchChain.orderBy(OrderBy(keys)), sectionBy: sectionBy)
    }

    /// Appends the keys of an `OrderBy`.
    public func orderBy(_ orderBy: OrderBy<T>) -> SectionedFetchChain<T> {
        SectionedFetchChain(fetchChain: fetchChain.orderBy(orderBy), sectionBy: sectionBy)
    }

    /// Adjusts limit, offset or pending-change handling.
    public func tweak(_ adjust: (inout Tweak) -> Void) -> SectionedFetchChain<T> {
        SectionedFetchChain(fetchChain: fetchChain.tweak(adjust), sectionBy: sectionBy)
    }
}

extension FetchChainBuilder {
    /// Groups the objects into sections by an attribute's value (see ``SectionBy``).
    public func sectionBy<V>(_ keyPath: KeyPath<T, V>, sectionName: (@Sendable (String?) -> String?)? = nil,
                             sectionIndexTitle: (@Sendable (String?) -> String?)? = nil) -> SectionedFetchChain<T> {
        SectionedFetchChain(fetchChain: self, sectionBy: SectionBy(keyPath, sectionName: sectionName, sectionIndexTitle: sectionIndexTitle))
    }

    /// Groups the objects into sections (see ``SectionBy``).
    public func sectionBy(_ sectionBy: SectionBy<T>) -> SectionedFetchChain<T> {
        SectionedFetchChain(fetchChain: self, sectionBy: sectionBy)
    }
}

extension From {
    /// Starts a sectioned fetch (see ``SectionBy``).
    public func sectionBy<V>(_ keyPath: KeyPath<T, V>, sectionName: (@Sendable (String?) -> String?)? = nil,
                             sectionIndexTitle: (@Sendable (String?) -> String?)? = nil) -> SectionedFetchChain<T> {
        chain.sectionBy(keyPath, sectionName: sectionName, sectionIndexTitle: sectionIndexTitle)
    }

    /// Starts a sectioned fetch (see ``SectionBy``).
    public func sectionBy(_ sectionBy: SectionBy<T>) -> SectionedFetchChain<T> {
        chain.sectionBy(sectionBy)
    }
}
