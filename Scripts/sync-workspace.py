#!/usr/bin/env python3
"""Makes FOLDER hold exactly what SOURCE holds, touching only the files whose content differs.

    Scripts/sync-workspace.py SOURCE FOLDER

CI's cache (see .ci/run) builds in a folder that outlives the clone: SwiftPM and the Swift driver
rebuild what a source file's path or modification time says changed, so a fresh clone (every file
new, at a new path) would rebuild everything. Copied here, a file whose bytes are already in FOLDER
keeps its old modification time and is not compiled again; one that differs is copied (a new
time), one SOURCE no longer has is removed. Scratch folders (any folder named `.build` or
`.build-...`) are left alone in FOLDER and never copied from SOURCE.
Prints how many files it copied and removed.
"""
import filecmp
import os
import shutil
import stat
import sys


def is_scratch(name):
    return name == ".build" or name.startswith(".build-")


def entries(folder):
    """Each path under folder (relative), with its kind: "dir", "link" or "file"; scratch folders left out."""
    found = {}
    for parent, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if not is_scratch(name)]
        relative = os.path.relpath(parent, folder)
        for name in folders + files:
            path = os.path.normpath(os.path.join(relative, name))
            full = os.path.join(folder, path)
            if os.path.islink(full):
                found[path] = "link"
            elif os.path.isdir(full):
                found[path] = "dir"
            else:
                found[path] = "file"
        # os.walk does not descend into links to folders; they are kept as links above.
    return found


def remove(path):
    if os.path.islink(path) or not os.path.isdir(path):
        os.unlink(path)
    else:
        shutil.rmtree(path)


def sync(source, folder):
    os.makedirs(folder, exist_ok=True)
    wanted = entries(source)
    present = entries(folder)
    removed = 0
    # Deepest first, so a folder's content goes before the folder.
    for path in sorted(present, key=lambda p: p.count(os.sep), reverse=True):
        full = os.path.join(folder, path)
        if not os.path.lexists(full):
            continue
        if wanted.get(path) != present[path]:
            remove(full)
            removed += 1
    copied = 0
    for path in sorted(wanted, key=lambda p: p.count(os.sep)):
        origin, target = os.path.join(source, path), os.path.join(folder, path)
        kind = wanted[path]
        if kind == "dir":
            os.makedirs(target, exist_ok=True)
        elif kind == "link":
            if os.path.lexists(target) and os.readlink(target) == os.readlink(origin):
                continue
            if os.path.lexists(target):
                remove(target)
            os.symlink(os.readlink(origin), target)
            copied += 1
        else:
            mode = stat.S_IMODE(os.stat(origin).st_mode)
            if os.path.exists(target) and filecmp.cmp(origin, target, shallow=False):
                if stat.S_IMODE(os.stat(target).st_mode) != mode:
                    os.chmod(target, mode)
                continue
            shutil.copyfile(origin, target)
            os.chmod(target, mode)
            copied += 1
    unchanged = sum(1 for kind in wanted.values() if kind != "dir") - copied
    print(f"sync-workspace: {copied} files copied, {removed} removed, {unchanged} unchanged")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: sync-workspace.py SOURCE FOLDER")
    source, folder = (os.path.abspath(argument) for argument in sys.argv[1:])
    if not os.path.isdir(source):
        sys.exit(f"sync-workspace: {source} is not a folder")
    if folder == source or folder.startswith(source + os.sep):
        sys.exit(f"sync-workspace: {folder} is inside {source}")
    sync(source, folder)
