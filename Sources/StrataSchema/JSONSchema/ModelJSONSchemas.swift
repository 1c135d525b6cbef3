import Foundation

/// JSON Schemas (draft-07) of the two kinds of model file, for editors with YAML language support
/// (`# yaml-language-server: $schema=...` at the top of a file): they check keys, types and
/// enumerations as you type and offer completions. The model loader remains the authority; the
/// schemas describe what it accepts, and a test keeps the two in step.
public enum ModelJSONSchemas {
    /// The folder, inside a model folder, that `strata init` and `strata convert` write the schemas to.
    public static let folder = ".strata"
    /// The schema of `model.yml`'s file name.
    public static let manifestFile = "strata-model.schema.json"
    /// The schema of a version file's file name.
    public static let versionFile = "strata-version.schema.json"

    /// Writes both schemas into a folder, creating it when missing.
    public static func write(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for (name, text) in [(manifestFile, manifest), (versionFile, version)] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name), options: .atomic)
        }
    }

    /// The comment line that points an editor at a schema in the model folder's `.strata` folder.
    public static func modeline(for file: String) -> String {
        "# yaml-language-server: $schema=\(folder)/\(file)"
    }

    /// The schema of `model.yml`.
    public static let manifest = #"""
    {
      "$schema": "http://json-schema.org/draft-07/schema#",
      "$id": "strata-model.schema.json",
      "title": "Strata model (model.yml)",
      "description": "A Strata model: its name, the order of its versions, and its configurations.",
      "type": "object",
      "required": ["model"],
      "additionalProperties": false,
      "properties": {
        "model": {"$ref": "#/definitions/name", "description": "The model's name, a Swift identifier: the generated enum is named after it."},
        "migrationChain": {
          "description": "The versions, oldest first ([V1, V2, V3]), or a tree where each key migrates to its value ({V1: V3, V2: V3}). May be left out when the model has one version.",
          "oneOf": [
            {"type": "array", "items": {"$ref": "#/definitions/name"}, "minItems": 1},
            {"type": "object", "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"$ref": "#/definitions/name"}}
          ]
        },
        "doc": {"type": "string", "description": "Documentation: becomes the doc comment of the generated model enum. Not part of the lock."},
        "openAPI": {"type": "boolean", "description": "Whether the generated code holds the current version's OpenAPI document as <Model>.openAPIDocument (strata openapi writes it either way)."},
        "configurations": {
          "description": "Configuration name → the entities of the current version its storage holds; a hierarchy is listed whole.",
          "type": "object",
          "propertyNames": {"$ref": "#/definitions/name"},
          "additionalProperties": {"type": "array", "items": {"$ref": "#/definitions/name"}}
        }
      },
      "definitions": {
        "name": {"type": "string", "minLength": 1, "pattern": "^[^\\s0-9!-/:-@\\[-^`{-~][^\\s!-/:-@\\[-^`{-~]*$", "description": "A Swift identifier: a letter or _, then letters, digits or _."}
      }
    }
    """#

    /// The schema of a version file.
    public static let version = #"""
    {
      "$schema": "http://json-schema.org/draft-07/schema#",
      "$id": "strata-version.schema.json",
      "title": "Strata model version",
      "description": "One version of a Strata model: its entities, how rows of an older version become rows of it, and its lock.",
      "type": "object",
      "required": ["version", "entities"],
      "additionalProperties": false,
      "properties": {
        "version": {"$ref": "#/definitions/name", "description": "The version's name, as the migration chain lists it."},
        "sync": {"type": "boolean", "description": "Whether the version's entities sync across devices (a CloudStore), unless one says otherwise. Part of each entity's lock."},
        "entities": {
          "description": "Entity name → entity.",
          "type": "object",
          "propertyNames": {"$ref": "#/definitions/name"},
          "additionalProperties": {"$ref": "#/definitions/entity"}
        },
        "migration": {
          "description": "How rows of an older version become rows of this one: one block, or a list of blocks, one per 'from'.",
          "oneOf": [
            {"$ref": "#/definitions/migration"},
            {"type": "array", "items": {"$ref": "#/definitions/migration"}, "minItems": 1}
          ]
        },
        "versionLock": {
          "description": "Written by strata lock: entity name → four 64-bit words. Never edit it.",
          "type": "object",
          "additionalProperties": {"type": "array", "items": {"type": ["string", "integer"], "pattern": "^0x[0-9a-f]{16}$", "description": "0x and 16 hex digits (YAML reads it as an integer)."}, "minItems": 4, "maxItems": 4}
        }
      },
      "definitions": {
        "name": {"type": "string", "minLength": 1, "pattern": "^[^\\s0-9!-/:-@\\[-^`{-~][^\\s!-/:-@\\[-^`{-~]*$", "description": "A Swift identifier: a letter or _, then letters, digits or _."},
        "entity": {
          "type": ["object", "null"],
          "additionalProperties": false,
          "properties": {
            "abstract": {"type": "boolean", "description": "Never created itself, only its subentities."},
            "doc": {"type": "string", "description": "Documentation: becomes the doc comment of the generated class. Not part of the lock."},
            "parent": {"$ref": "#/definitions/name", "description": "The entity this one inherits from; a hierarchy shares its root's table."},
            "sync": {"type": "boolean", "description": "Whether the entity's objects sync across devices; by default its parent's setting, else the version's. A hierarchy syncs as one. Part of the lock."},
            "owner": {"$ref": "#/definitions/name", "description": "A stored String attribute (optional or with a default) that the sync server fills with the account each object belongs to; each account sees only its own. Part of the lock."},
            "hashModifier": {"type": "string", "minLength": 1, "description": "Text that enters the version lock and nothing else: marks a change the stored shape does not show (a meaning, an encoding), so the version and its migration step differ."},
            "attributes": {"type": ["object", "null"], "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"$ref": "#/definitions/attribute"}},
            "relationships": {"type": ["object", "null"], "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"$ref": "#/definitions/relationship"}},
            "uniqueness": {"description": "Groups of attributes whose values together are unique.", "type": "array", "items": {"type": "array", "items": {"$ref": "#/definitions/name"}, "minItems": 1}},
            "import": {
              "description": "How JSON objects map onto the entity.",
              "type": "object",
              "additionalProperties": false,
              "properties": {
                "uniqueID": {"$ref": "#/definitions/name", "description": "An attribute marked unique: true; objects with the same value are updated."},
                "keys": {"type": "object", "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"type": "string"}, "description": "Property → JSON key path."}
              }
            }
          }
        },
        "attributeType": {"enum": ["Bool", "Int16", "Int32", "Int64", "Int", "Double", "Float", "Decimal", "String", "Date", "Data", "UUID", "URL", "Codable"]},
        "attribute": {
          "oneOf": [
            {"$ref": "#/definitions/attributeType"},
            {
              "type": "object",
              "required": ["type"],
              "additionalProperties": false,
              "properties": {
                "type": {"$ref": "#/definitions/attributeType"},
                "optional": {"type": "boolean", "description": "Whether the value may be nil (default false)."},
                "default": {"type": ["string", "number", "boolean"], "description": "A constant for new objects, of the attribute's type."},
                "initial": {"enum": ["now", "uuid"], "description": "A value computed for each new object."},
                "storageKey": {"type": "string", "minLength": 1, "description": "The column name when it should differ from the Swift name."},
                "indexed": {"type": "boolean"},
                "unique": {"type": "boolean"},
                "virtual": {"type": "boolean", "description": "Not stored; the app implements it."},
                "transient": {"type": "boolean", "description": "Not stored: each object keeps the value in memory (from its default), set in any context, reset when the object is read from the store."},
                "hashModifier": {"type": "string", "minLength": 1, "description": "Text that enters the version lock and nothing else: marks a change the stored shape does not show (a meaning, an encoding), so the version and its migration step differ."},
                "swiftType": {"type": "string", "minLength": 1, "description": "For Codable: the Swift type stored."},
                "coder": {"enum": ["json", "propertyList", "binary", "custom"], "description": "For Codable: how values are encoded; custom: by the app's own encode and decode functions."},
                "merge": {"enum": ["add"], "description": "For an integer of a synced entity: a counter, whose increments on every device add up (otherwise the last writer wins). Part of the lock."},
                "doc": {"type": "string", "description": "Documentation: becomes the doc comment of the generated property. Not part of the lock."}
              }
            }
          ]
        },
        "relationship": {
          "type": "object",
          "required": ["destination", "inverse"],
          "additionalProperties": false,
          "properties": {
            "destination": {"$ref": "#/definitions/name", "description": "The entity pointed at."},
            "inverse": {"$ref": "#/definitions/name", "description": "The relationship on the destination that points back."},
            "toMany": {"enum": ["unordered", "ordered"], "description": "Leave out for to-one."},
            "deleteRule": {"enum": ["nullify", "cascade", "deny"]},
            "min": {"type": "integer", "minimum": 0},
            "max": {"type": "integer", "minimum": 0},
            "storageKey": {"type": "string", "minLength": 1},
            "hashModifier": {"type": "string", "minLength": 1, "description": "Text that enters the version lock and nothing else (see the attribute's)."},
            "doc": {"type": "string", "description": "Documentation: becomes the doc comment of the generated property. Not part of the lock."}
          }
        },
        "migration": {
          "type": "object",
          "required": ["from"],
          "additionalProperties": false,
          "properties": {
            "from": {"$ref": "#/definitions/name", "description": "The version this block migrates from, directly before this one in the chain."},
            "entities": {"type": "object", "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"$ref": "#/definitions/entityHint"}}
          }
        },
        "entityHint": {
          "type": "object",
          "additionalProperties": false,
          "properties": {
            "renamedFrom": {"$ref": "#/definitions/name"},
            "delete": {"type": "boolean"},
            "transform": {"enum": ["custom"]},
            "attributes": {"type": "object", "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"$ref": "#/definitions/propertyHint"}},
            "relationships": {"type": "object", "propertyNames": {"$ref": "#/definitions/name"}, "additionalProperties": {"$ref": "#/definitions/propertyHint"}}
          }
        },
        "propertyHint": {
          "type": "object",
          "required": ["renamedFrom"],
          "additionalProperties": false,
          "properties": {"renamedFrom": {"$ref": "#/definitions/name"}}
        }
      }
    }
    """#
}
