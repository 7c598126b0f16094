#!/usr/bin/env python3
"""Checks that a Debian package declares every shared library it needs.

usage: check-deb-deps.py PACKAGE.deb PREFIX

PREFIX holds the package's files (dpkg-deb -x). For every ELF file there,
each NEEDED library is resolved as the loader resolves it on this machine
(ldd), the file is mapped to the installed package that owns it (dpkg -S),
and that package must be in the closure of the package's Depends and
Pre-Depends: those packages, then their own Depends and Pre-Depends,
recursively, over the installed packages (every installed alternative of
`a | b`, and the installed providers of a virtual package). A library that
no package owns, or that does not resolve, is a failure too.

Prints one line per ELF file and each library that is not covered; exits 1
if there is any.
"""

import os
import re
import subprocess
import sys


def run(args):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True)


def relation_names(field):
    """Package names of a Depends field, each alternative of `a | b`."""
    names = []
    for relation in field.split(","):
        for alternative in relation.split("|"):
            name = re.sub(r"\(.*?\)|\[.*?\]|<.*?>", "", alternative).strip()
            name = name.split(":")[0]
            if name:
                names.append(name)
    return names


def installed_packages():
    """name -> (depends names, provides names) of every installed package."""
    out = run(["dpkg-query", "-W", "-f",
               "${Package}\t${db:Status-Abbrev}\t${Depends}, ${Pre-Depends}"
               "\t${Provides}\n"]).stdout
    packages = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) != 4 or not parts[1].startswith("ii"):
            continue
        name, _, depends, provides = parts
        packages[name] = (relation_names(depends), relation_names(provides))
    return packages


def closure(roots, packages):
    providers = {}
    for name, (_, provides) in packages.items():
        for virtual in provides:
            providers.setdefault(virtual, []).append(name)
    seen = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        for real in ([name] if name in packages else []) + \
                providers.get(name, []):
            if real not in seen:
                seen.add(real)
                todo.extend(packages[real][0])
    return seen


def is_elf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def needed(path):
    out = run(["readelf", "-d", path]).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[(.*?)\]", out)


def resolved(path):
    """soname -> the file ldd resolves it to (None: not found)."""
    result = {}
    for line in run(["ldd", path]).stdout.splitlines():
        line = line.strip()
        m = re.match(r"(\S+) => (not found|(\S+) \(0x[0-9a-f]+\))", line)
        if m:
            result[m.group(1)] = m.group(3)
            continue
        m = re.match(r"(/\S+) \(0x[0-9a-f]+\)", line)
        if m:  # The loader itself.
            result[os.path.basename(m.group(1))] = m.group(1)
    return result


def candidates(path):
    """Names dpkg may know a library file by."""
    names = [path, os.path.realpath(path)]
    for name in list(names):
        # usrmerge: dpkg may know /lib/... for /usr/lib/... and back.
        if name.startswith("/usr/lib/"):
            names.append(name[len("/usr"):])
        elif name.startswith("/lib"):
            names.append("/usr" + name)
    return names


def owners(paths):
    """path -> the installed package that owns it (None: no package), with
    one dpkg -S for all."""
    names = sorted({n for p in paths for n in candidates(p)})
    known = {}
    out = run(["dpkg", "-S"] + names).stdout if names else ""
    for line in out.splitlines():
        if line.startswith("diversion ") or ": " not in line:
            continue
        packages, name = line.split(": ", 1)
        known[name] = packages.split(",")[0].strip().split(":")[0]
    return {p: next((known[n] for n in candidates(p) if n in known), None)
            for p in paths}


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    deb, prefix = argv[1], argv[2]
    fields = run(["dpkg-deb", "-f", deb, "Depends", "Pre-Depends"]).stdout
    depends = relation_names(",".join(
        line.split(":", 1)[1] for line in fields.splitlines() if ":" in line))
    packages = installed_packages()
    allowed = closure(depends, packages)
    problems = []
    files = []
    for root, _, names in os.walk(prefix):
        for name in sorted(names):
            path = os.path.join(root, name)
            if os.path.islink(path) or not is_elf(path):
                continue
            files.append((os.path.relpath(path, prefix), needed(path),
                          resolved(path)))
    owner = owners({where[lib] for _, libs, where in files for lib in libs
                    if where.get(lib)})
    for short, libs, where in files:
        for lib in libs:
            target = where.get(lib)
            package = owner.get(target)
            if not target:
                problems.append("%s: %s does not resolve" % (short, lib))
            elif package is None:
                problems.append("%s: %s (%s) belongs to no package"
                                % (short, lib, target))
            elif package not in allowed:
                problems.append("%s: %s comes from %s, which Depends does "
                                "not reach" % (short, lib, package))
        print("check-deb-deps: /%s: %d NEEDED libraries" % (short, len(libs)))
    for p in problems:
        print("check-deb-deps: error: " + p)
    if not files:
        print("check-deb-deps: error: no ELF file in " + prefix)
        return 1
    if problems:
        return 1
    print("check-deb-deps: every NEEDED library of %d files comes from a "
          "package that Depends reaches (%d packages: %s)"
          % (len(files), len(set(owner.values())),
             ", ".join(sorted(set(owner.values())))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
