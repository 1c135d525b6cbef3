#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// Whether this test process runs under AddressSanitizer or ThreadSanitizer: found by the
/// runtime's entry points, which only a sanitized build links.
public enum Sanitizers {
    /// True under ASan or TSan.
    public static let active: Bool = {
        let entryPoints: [String] = ["__asan_init", "__tsan_init"]
        #if canImport(Glibc)
        return entryPoints.contains { dlsym(nil, $0) != nil }
        #else
        return entryPoints.contains { dlsym(UnsafeMutableRawPointer(bitPattern: -2), $0) != nil }  // RTLD_DEFAULT on Darwin
        #endif
    }()

    /// Tests that measure the heap: a sanitizer's allocator keeps its own books, which glibc's
    /// statistics do not see.
    public static let absent: ConditionTrait = .disabled(if: active, "a sanitizer's allocator replaces the heap these tests count")
}
