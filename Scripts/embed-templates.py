#!/usr/bin/env python3
"""Writes Sources/StrataCodegen/BuiltinTemplates.swift from Templates/*.stencil.

The generator carries its templates inside the binary, so a `strata` copied alone still works;
a test fails when this file and Templates/ differ. Run after editing a template:
    python3 Scripts/embed-templates.py
"""
import os

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
folder = os.path.join(root, "Templates")
names = sorted(n for n in os.listdir(folder) if n.endswith(".stencil"))
out = ["// Written by Scripts/embed-templates.py from Templates/. Do not edit; edit the templates and run the script.", "",
       "/// The templates built into the generator, by file name.", "enum BuiltinTemplates {",
       "    static let all: [String: String] = ["]
for name in names:
    text = open(os.path.join(folder, name), encoding="utf-8").read()
    out.append('        "%s": #"""' % name)
    out.extend(text.rstrip("\n").split("\n"))
    out.append('"""#,')
out += ["    ]", "}", ""]
open(os.path.join(root, "Sources", "StrataCodegen", "BuiltinTemplates.swift"), "w", encoding="utf-8").write("\n".join(out))
