import Foundation

/// The JSON the sample imports: people, each with dogs, keyed as the model's `import:` blocks say.
enum Fixture {
    static let json = Data("""
    [
      {"id": 1, "full_name": "Ada Lovelace", "display_name": "Ada Lovelace", "balance": 120.50,
       "homepage": "https://example.com/ada", "settings": {"theme": "dark", "notifications": true},
       "pets": [{"nickname": "Rex", "species": "dog", "weight": 31.5, "age": 4},
                {"nickname": "Bo", "species": "dog", "weight": 8.25, "age": 2}]},
      {"id": 2, "full_name": "Grace Hopper", "display_name": "Grace Hopper", "balance": 99.99,
       "homepage": null, "settings": null,
       "pets": [{"nickname": "Fido", "species": "dog", "weight": 20, "age": 9}]},
      {"id": 3, "full_name": "Alan Turing", "display_name": "Alan Turing", "balance": 0,
       "homepage": "https://example.com/alan", "settings": {"theme": "light", "notifications": false}, "pets": []}
    ]
    """.utf8)
}
