#!/usr/bin/env python3
"""Checks a SARIF log against the SARIF 2.1.0 properties that tma-tidy emits.

The required properties and types of the SARIF 2.1.0 schema for the objects
tma-tidy writes (sarifLog, run, tool, toolComponent, reportingDescriptor,
result, message, location, physicalLocation, artifactLocation, region, fix,
artifactChange, replacement, artifactContent), and what GitHub code scanning
needs: version, runs[].tool.driver.name, results[].message.text,
results[].locations[].physicalLocation.artifactLocation.uri and
region.startLine. Written by hand: the official schema is not available
offline. Prints each problem and exits 1 if there is any.

usage: sarif_validate.py LOG.sarif [--min-results N]
"""

import json
import sys

LEVELS = {"none", "note", "warning", "error"}
errors = []


def fail(path, message):
    errors.append("%s: %s" % (path, message))


def expect(obj, path, key, types, required=True):
    if not isinstance(obj, dict):
        fail(path, "is not an object")
        return None
    if key not in obj:
        if required:
            fail(path, "missing required property '%s'" % key)
        return None
    value = obj[key]
    # bool is an int in Python; SARIF integers are never booleans.
    if not isinstance(value, types) or (
            isinstance(value, bool) and bool not in _as_tuple(types)):
        fail("%s.%s" % (path, key), "has type %s, expected %s"
             % (type(value).__name__, types))
        return None
    return value


def _as_tuple(types):
    return types if isinstance(types, tuple) else (types,)


def message(obj, path):
    m = expect(obj, path, "message", dict)
    if m is not None:
        expect(m, path + ".message", "text", str)


def region(obj, path, github):
    r = expect(obj, path, "region", dict, required=github)
    if r is None:
        return
    for key in ("startLine", "startColumn", "endLine", "endColumn"):
        v = expect(r, path + ".region", key, int,
                   required=github and key == "startLine")
        if v is not None and v < 1:
            fail("%s.region.%s" % (path, key), "must be >= 1")
    for key in ("byteOffset", "byteLength", "charOffset", "charLength"):
        v = expect(r, path + ".region", key, int, required=False)
        if v is not None and v < 0:
            fail("%s.region.%s" % (path, key), "must be >= 0")
    if not any(k in r for k in ("startLine", "charOffset", "byteOffset")):
        fail(path + ".region", "has neither startLine, charOffset nor "
             "byteOffset")


def artifact_location(obj, path):
    a = expect(obj, path, "artifactLocation", dict)
    if a is not None:
        uri = expect(a, path + ".artifactLocation", "uri", str)
        if uri is not None and (uri == "" or " " in uri):
            fail(path + ".artifactLocation.uri", "is not a URI: %r" % uri)
        expect(a, path + ".artifactLocation", "uriBaseId", str, required=False)


def physical_location(loc, path, github):
    p = expect(loc, path, "physicalLocation", dict, required=github)
    if p is None:
        return
    path += ".physicalLocation"
    artifact_location(p, path)
    region(p, path, github)


def fix(f, path):
    expect(f, path, "description", dict, required=False)
    if isinstance(f.get("description"), dict):
        expect(f["description"], path + ".description", "text", str)
    changes = expect(f, path, "artifactChanges", list)
    if changes is not None and not changes:
        fail(path + ".artifactChanges", "must not be empty")
    for i, change in enumerate(changes or []):
        cpath = "%s.artifactChanges[%d]" % (path, i)
        artifact_location(change, cpath)
        replacements = expect(change, cpath, "replacements", list)
        if replacements is not None and not replacements:
            fail(cpath + ".replacements", "must not be empty")
        for j, rep in enumerate(replacements or []):
            rpath = "%s.replacements[%d]" % (cpath, j)
            d = expect(rep, rpath, "deletedRegion", dict)
            if d is not None:
                region({"region": d}, rpath + ".deletedRegion", False)
            ins = expect(rep, rpath, "insertedContent", dict, required=False)
            if ins is not None:
                expect(ins, rpath + ".insertedContent", "text", str)


def validate(log):
    version = expect(log, "log", "version", str)
    if version is not None and version != "2.1.0":
        fail("log.version", "is %r, expected '2.1.0'" % version)
    expect(log, "log", "$schema", str, required=False)
    runs = expect(log, "log", "runs", list) or []
    results_seen = 0
    for r, run in enumerate(runs):
        path = "runs[%d]" % r
        tool = expect(run, path, "tool", dict)
        rule_ids = []
        if tool is not None:
            driver = expect(tool, path + ".tool", "driver", dict)
            if driver is not None:
                dpath = path + ".tool.driver"
                expect(driver, dpath, "name", str)
                expect(driver, dpath, "version", str, required=False)
                expect(driver, dpath, "informationUri", str, required=False)
                for i, rule in enumerate(
                        expect(driver, dpath, "rules", list,
                               required=False) or []):
                    rule_ids.append(expect(rule, "%s.rules[%d]" % (dpath, i),
                                           "id", str))
        kind = expect(run, path, "columnKind", str, required=False)
        if kind is not None and kind not in ("utf16CodeUnits",
                                             "unicodeCodePoints"):
            fail(path + ".columnKind", "is %r" % kind)
        for key, base in (expect(run, path, "originalUriBaseIds", dict,
                                 required=False) or {}).items():
            expect(base, "%s.originalUriBaseIds.%s" % (path, key), "uri", str)
        results = expect(run, path, "results", list) or []
        for i, result in enumerate(results):
            results_seen += 1
            rpath = "%s.results[%d]" % (path, i)
            message(result, rpath)
            rule_id = expect(result, rpath, "ruleId", str)
            index = expect(result, rpath, "ruleIndex", int, required=False)
            if index is not None:
                if not 0 <= index < len(rule_ids):
                    fail(rpath + ".ruleIndex", "out of range")
                elif rule_ids[index] != rule_id:
                    fail(rpath + ".ruleIndex", "names rule %r, not %r"
                         % (rule_ids[index], rule_id))
            level = expect(result, rpath, "level", str, required=False)
            if level is not None and level not in LEVELS:
                fail(rpath + ".level", "is %r" % level)
            locations = expect(result, rpath, "locations", list)
            if locations is not None and not locations:
                fail(rpath + ".locations", "is empty (GitHub needs one)")
            for j, loc in enumerate(locations or []):
                physical_location(loc, "%s.locations[%d]" % (rpath, j), True)
            for j, loc in enumerate(expect(result, rpath, "relatedLocations",
                                           list, required=False) or []):
                lpath = "%s.relatedLocations[%d]" % (rpath, j)
                expect(loc, lpath, "id", int, required=False)
                if "message" in loc:
                    message(loc, lpath)
                physical_location(loc, lpath, False)
            for j, f in enumerate(expect(result, rpath, "fixes", list,
                                         required=False) or []):
                fix(f, "%s.fixes[%d]" % (rpath, j))
    return results_seen


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    min_results = 0
    if "--min-results" in argv:
        min_results = int(argv[argv.index("--min-results") + 1])
    with open(argv[1], encoding="utf-8") as f:
        log = json.load(f)
    count = validate(log)
    if count < min_results:
        fail("log", "has %d results, expected at least %d"
             % (count, min_results))
    for e in errors:
        print("sarif_validate: error: " + e)
    if errors:
        return 1
    print("sarif_validate: valid SARIF 2.1.0, %d results" % count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
