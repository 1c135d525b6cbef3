import Stencil

/// A group of template values. Stencil looks members up through `DynamicMemberLookup`; a plain
/// `[String: Any]` would instead be bridged to an `NSDictionary` on every lookup on Linux, which
/// made rendering a large model take seconds. A class, not a struct: Stencil tries `as? NSObject`
/// before `DynamicMemberLookup`, and that cast fails at once for a Swift class but goes through the
/// bridging machinery for a struct, once per variable rendered.
final class TemplateNode: DynamicMemberLookup {
    let values: [String: Any]

    init(_ values: [String: Any]) {
        self.values = values
    }

    subscript(dynamicMember member: String) -> Any? {
        values[member]
    }
}
