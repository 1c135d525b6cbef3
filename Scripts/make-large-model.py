#!/usr/bin/env python3
"""Writes a synthetic model for measuring the tools: ENTITIES entities, VERSIONS versions.

Each entity has eight attributes of assorted types and a to-one / to-many relationship pair with
its neighbour; each version adds one attribute to every entity, with a migration block.

usage: make-large-model.py DIR [ENTITIES] [VERSIONS]
"""
import os
import sys

def main():
    folder = sys.argv[1]
    entities = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    versions = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    os.makedirs(folder, exist_ok=True)
    names = [f"V{v}" for v in range(1, versions + 1)]
    with open(os.path.join(folder, "model.yml"), "w") as f:
        f.write(f"model: Large\nmigrationChain: [{', '.join(names)}]\n")
    types = ["String", "Int64", "Double", "Bool", "Date", "UUID", "Decimal", "Data"]
    for v, name in enumerate(names, start=1):
        lines = [f"version: {name}", "entities:"]
        for e in range(entities):
            other = (e + 1) % entities
            back = (e - 1) % entities
            lines.append(f"  Entity{e}:")
            lines.append("    attributes:")
            for a, t in enumerate(types):
                extra = ", indexed: true" if a == 0 else ", optional: true" if a % 2 else ""
                lines.append(f"      field{a}: {{type: {t}{extra}}}")
            for added in range(2, v + 1):
                lines.append(f"      added{added}: {{type: Int32, default: {added}}}")
            lines.append("    relationships:")
            lines.append(f"      next: {{destination: Entity{other}, inverse: previous}}")
            lines.append(f"      previous: {{destination: Entity{back}, inverse: next, toMany: unordered}}")
            lines.append("    uniqueness: [[field0, field1]]")
        if v > 1:
            lines += ["migration:", f"  from: V{v - 1}", "  entities:"]
            lines += [f"    Entity{e}: {{transform: custom}}" for e in range(0, entities, 50)]
        with open(os.path.join(folder, f"{name}.yml"), "w") as f:
            f.write("\n".join(lines) + "\n")

if __name__ == "__main__":
    main()
