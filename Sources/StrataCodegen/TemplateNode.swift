import Stencil

/// A group of template values. Stencil looks members up through `DynamicMemberLookup`; a plain
/// `[String: Any]` would instead be bridged to an `NSDictionary` on every lookup on Linux, which
/// made rendering a large model take seconds.
struct TemplateNode: DynamicMemberLookup {
    let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }

    subscript(dynamicMember member: String) -> Any? {
        values[member]
    }
}
