import Foundation

/// The JSON the sample imports: people, each with dogs.
enum Fixture {
    struct PersonJSON: Decodable {
        let id: Int64
        let full_name: String
        let display_name: String
        let balance: Decimal
        let homepage: URL?
        let theme: String?
        let pets: [DogJSON]
    }

    struct DogJSON: Decodable {
        let nickname: String
        let species: String
        let weight: Double
        let age: Int
    }

    static let json = Data("""
    [
      {"id": 1, "full_name": "Ada Lovelace", "display_name": "Ada Lovelace", "balance": 120.50,
       "homepage": "https://example.com/ada", "theme": "dark",
       "pets": [{"nickname": "Rex", "species": "dog", "weight": 31.5, "age": 4},
                {"nickname": "Bo", "species": "dog", "weight": 8.25, "age": 2}]},
      {"id": 2, "full_name": "Grace Hopper", "display_name": "Grace Hopper", "balance": 99.99,
       "homepage": null, "theme": null,
       "pets": [{"nickname": "Fido", "species": "dog", "weight": 20, "age": 9}]},
      {"id": 3, "full_name": "Alan Turing", "display_name": "Alan Turing", "balance": 0,
       "homepage": "https://example.com/alan", "theme": "light", "pets": []}
    ]
    """.utf8)
}
