import Foundation
import Hummingbird
import Strata

/// `GET /openapi.json`: the generated components of the model (`PetServer.openAPIDocument`: each
/// entity's snapshot and patch schemas) with this server's paths, which refer to them.
enum OpenAPIRoute {
    /// The whole document, made once.
    static let document: Data = {
        // The generated document is valid JSON by construction; a failure here is a build defect.
        guard var document = (try? JSONSerialization.jsonObject(with: Data(PetServer.openAPIDocument.utf8))) as? [String: Any],
              var components = document["components"] as? [String: Any],
              var schemas = components["schemas"] as? [String: Any] else {
            preconditionFailure("PetServer.openAPIDocument is not a JSON object with components")
        }
        schemas["Error"] = errorSchema
        schemas["PersonWithDogs"] = object(["person": ref("Person"), "dogs": ["type": "array", "items": ref("Dog")]],
                                           required: ["person", "dogs"])
        schemas["PersonImport"] = personImport
        // A create body is a patch that gives what the model requires (the generator lists it).
        for entity in ["Person", "Dog"] {
            let required = (schemas[entity + "Patch"] as? [String: Any])?["x-strata-create-required"] as? [String] ?? []
            schemas[entity + "Create"] = ["allOf": [ref(entity + "Patch"), ["required": required]]]
        }
        components["schemas"] = schemas
        document["components"] = components
        document["info"] = ["title": "PetServer", "version": "1",
                            "description": "People and their dogs. The schemas of Person, Dog and their patches are generated from the model."]
        document["paths"] = paths
        do {
            return try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        } catch {
            preconditionFailure("the OpenAPI document cannot be written: \(error)")
        }
    }()

    static func response() -> Response {
        APIJSON.response(data: document)
    }

    private static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    private static func object(_ properties: [String: Any], required: [String] = []) -> [String: Any] {
        ["type": "object", "properties": properties, "required": required, "additionalProperties": false]
    }

    /// Hummingbird's error body: `{"error": {"message": "…"}}`.
    private static var errorSchema: [String: Any] { object(["error": object(["message": ["type": "string"]], required: ["message"])], required: ["error"]) }

    /// One person as the model's `import:` block reads it. The importer takes values in several
    /// forms (numbers as text, one dog for a list of one) and ignores keys it does not read, so
    /// the fields are described in words and left open.
    private static var personImport: [String: Any] { [
        "type": "object", "required": ["personID"],
        "properties": ["personID": ["description": "The person's personID: a whole number, or text that holds one."],
                       "name": ["description": "Text."], "isActive": ["description": "true or false."],
                       "pets": ["description": "The person's dogs: an array of objects with nickname, species, weight and years."]],
    ] }

    private static func json(_ schema: [String: Any], _ description: String) -> [String: Any] {
        ["description": description, "content": ["application/json": ["schema": schema]]]
    }

    private static func errors(_ codes: [String: String]) -> [String: Any] {
        codes.mapValues { json(ref("Error"), $0) }
    }

    private static var personIDParameter: [String: Any] { [
        "name": "personID", "in": "path", "required": true,
        "schema": ["type": "integer", "format": "int64", "minimum": Int64.min, "maximum": Int64.max],
    ] }

    private static var pagingParameters: [[String: Any]] { [
        ["name": "offset", "in": "query", "schema": ["type": "integer", "minimum": 0, "maximum": Int64.max]],
        ["name": "limit", "in": "query", "schema": ["type": "integer", "minimum": 1, "maximum": Paging.maximumLimit]],
    ] }

    private static func body(_ schema: String) -> [String: Any] {
        ["required": true, "content": ["application/json": ["schema": ref(schema)]]]
    }

    private static var paths: [String: Any] {
        let badInput = ["400": "A body or parameter the server refuses; the message names each bad field.",
                        "413": "A body over 1 MiB."]
        return [
            "/people": [
                "get": ["summary": "People by personID, a page at a time; name keeps those whose name contains it.",
                        "parameters": pagingParameters + [["name": "name", "in": "query", "schema": ["type": "string"]]],
                        "responses": ["200": json(["type": "array", "items": ref("Person")], "The people.")]
                            .merging(errors(["400": "A bad offset or limit."])) { first, _ in first }],
                "post": ["summary": "Creates a person; the model requires personID.", "requestBody": body("PersonCreate"),
                         "responses": ["201": json(ref("Person"), "The person created.")]
                            .merging(errors(badInput.merging(["409": "Another person has the personID."]) { first, _ in first })) { first, _ in first }],
            ],
            "/people/import": [
                "post": ["summary": "Imports people (and their dogs), updating those whose personID exists.",
                         "requestBody": ["required": true, "content": ["application/json": ["schema": ["type": "array", "items": ref("PersonImport")]]]],
                         "responses": ["200": json(["type": "array", "items": ref("Person")], "The people imported.")]
                            .merging(errors(badInput)) { first, _ in first }],
            ],
            "/people/{personID}": [
                "parameters": [personIDParameter],
                "get": ["summary": "A person and their dogs.",
                        "responses": ["200": json(ref("PersonWithDogs"), "The person and their dogs.")]
                            .merging(errors(["400": "A personID that is not a whole number.", "404": "Nobody has the personID."])) { first, _ in first }],
                "patch": ["summary": "Changes the fields given.", "requestBody": body("PersonPatch"),
                          "responses": ["200": json(ref("Person"), "The person changed.")]
                            .merging(errors(badInput.merging(["404": "Nobody has the personID.", "409": "Another person has the new personID."]) { first, _ in first })) { first, _ in first }],
                "delete": ["summary": "Deletes the person and their dogs.",
                           "responses": ["204": ["description": "Deleted."]]
                            .merging(errors(["400": "A personID that is not a whole number.", "404": "Nobody has the personID."])) { first, _ in first }],
            ],
            "/dogs": [
                "get": ["summary": "Dogs by nickname, then by when they were created, a page at a time.", "parameters": pagingParameters,
                        "responses": ["200": json(["type": "array", "items": ref("Dog")], "The dogs.")]
                            .merging(errors(["400": "A bad offset or limit."])) { first, _ in first }],
                "post": ["summary": "Creates a dog; master is a person's personID. Weight and years cannot be negative.",
                         "requestBody": body("DogCreate"),
                         "responses": ["201": json(ref("Dog"), "The dog created.")]
                            .merging(errors(badInput.merging(["404": "Nobody has the master's personID."]) { first, _ in first })) { first, _ in first }],
            ],
            "/dogs/live": [
                "get": ["summary": "The list of dogs as server-sent events: list, then deleted, moved, inserted and updated.",
                        "responses": ["200": ["description": "An endless event stream.", "content": ["text/event-stream": ["schema": ["type": "string"]]]]]],
            ],
        ]
    }
}
