import Foundation
import FuzzReplay
import Strata

/// The Codable type the Shop model stores in `Customer.preferences`.
struct Preferences: Codable, Hashable, Sendable {
    var newsletter: Bool
    var language: String
}

extension Customer: CustomerVirtualAttributes {
    /// The `virtual` attribute the model asks the app to supply.
    var initials: String { String(name.prefix(1)) }
}

/// One input is JSON text: an object is imported as a customer (with nested orders and their
/// products), an array as products, into an in-memory store of the Shop model, once from
/// `JSONSerialization`'s dictionaries and once from payloads `JSONDecoder` decoded. Imports either
/// work or throw; nothing may crash or hang.
enum ImportFuzz {
    static let stack: DataStack = {
        StrataDefaults.logger = ConsoleLogger(minimumLevel: .fatal)
        let stack = DataStack(Shop.schemaHistory)
        do { try stack.addStorageAndWait(InMemoryStore()) } catch { fatalError("\(error)") }
        return stack
    }()

    static func run(_ bytes: UnsafeRawBufferPointer) {
        let data = Data(bytes)
        let customer = try? JSONDecoder().decode(Customer.ImportPayload.self, from: data)
        let products = try? JSONDecoder().decode([Product.ImportPayload].self, from: data)
        _ = try? stack.perform(synchronous: { transaction in
            if let customer { _ = try transaction.importUniqueObject(Into<Customer>(), source: customer) }
            if let products { _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: products) }
            try transaction.cancel()
        })
        guard let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return }
        _ = try? stack.perform(synchronous: { transaction in
            if let object = json as? [String: Any] {
                _ = try transaction.importUniqueObject(Into<Customer>(), source: object)
            } else if let array = json as? [[String: Any]] {
                _ = try transaction.importUniqueObjects(Into<Product>(), sourceArray: array)
            }
            // Undo, so every input starts from an empty store.
            try transaction.cancel()
        })
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    ImportFuzz.run(UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
#else
@main
enum ImportReplay {
    static func main() {
        replay(Array(CommandLine.arguments.dropFirst()), ImportFuzz.run)
    }
}
#endif
