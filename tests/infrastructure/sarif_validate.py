#!/usr/bin/env python3
"""Checks a SARIF log in two layers.

1. The official SARIF 2.1.0 JSON schema (OASIS, vendored in
   Inputs/sarif/sarif-schema-2.1.0.json), with the `jsonschema` package
   (Debian: python3-jsonschema, which .ci/install-deps.sh installs). String
   formats (uri, date-time) are not checked.
2. What GitHub code scanning needs beyond the schema, and what tma-tidy
   always writes: at least one run, each with `results`; every result with a
   `ruleId`, a `message.text` (not only a message id) and at least one
   location with `physicalLocation.artifactLocation.uri` (non-empty, no
   spaces) and `region.startLine`; a `ruleIndex` that names the rule of the
   result's `ruleId`.

Prints each problem and exits 1 if there is any; exits 2 if jsonschema is
missing.

usage: sarif_validate.py LOG.sarif [--min-results N] [--schema SCHEMA.json]
"""

import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs",
                      "sarif", "sarif-schema-2.1.0.json")
errors = []


def fail(path, message):
    errors.append("%s: %s" % (path, message))


def schema_errors(log, schema_path):
    try:
        import jsonschema
    except ImportError:
        print("sarif_validate: error: the Python package jsonschema is "
              "missing (%s); install python3-jsonschema "
              "(.ci/install-deps.sh)" % sys.executable)
        sys.exit(2)
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    # The schema says draft-04; validator_for picks Draft4Validator.
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    for e in sorted(cls(schema).iter_errors(log),
                    key=lambda e: [str(p) for p in e.absolute_path]):
        where = "log" + "".join("[%d]" % p if isinstance(p, int) else ".%s" % p
                                for p in e.absolute_path)
        fail(where, "schema: %s" % e.message)


def github_checks(log):
    """The code-scanning layer; the schema has checked the types."""
    runs = log.get("runs") if isinstance(log, dict) else None
    if not runs:
        fail("log.runs", "has no run")
        return 0
    results_seen = 0
    for r, run in enumerate(runs):
        path = "log.runs[%d]" % r
        if not isinstance(run, dict):
            continue
        driver = run.get("tool", {}).get("driver", {})
        rule_ids = [rule.get("id") for rule in driver.get("rules") or []]
        results = run.get("results")
        if not isinstance(results, list):
            fail(path, "has no 'results' list")
            continue
        for i, result in enumerate(results):
            results_seen += 1
            rpath = "%s.results[%d]" % (path, i)
            rule_id = result.get("ruleId")
            if not rule_id:
                fail(rpath, "has no ruleId")
            if "text" not in result.get("message", {}):
                fail(rpath + ".message", "has no text")
            index = result.get("ruleIndex")
            if index is not None:
                if not 0 <= index < len(rule_ids):
                    fail(rpath + ".ruleIndex", "out of range")
                elif rule_ids[index] != rule_id:
                    fail(rpath + ".ruleIndex", "names rule %r, not %r"
                         % (rule_ids[index], rule_id))
            locations = result.get("locations")
            if not locations:
                fail(rpath + ".locations", "is missing or empty (GitHub "
                     "needs one)")
            for j, loc in enumerate(locations or []):
                lpath = "%s.locations[%d].physicalLocation" % (rpath, j)
                phys = loc.get("physicalLocation")
                if phys is None:
                    fail(lpath, "is missing")
                    continue
                uri = phys.get("artifactLocation", {}).get("uri")
                if not uri or " " in uri:
                    fail(lpath + ".artifactLocation.uri",
                         "is not a URI: %r" % uri)
                if "startLine" not in phys.get("region", {}):
                    fail(lpath + ".region", "has no startLine")
    return results_seen


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    min_results = 0
    schema = SCHEMA
    if "--min-results" in argv:
        min_results = int(argv[argv.index("--min-results") + 1])
    if "--schema" in argv:
        schema = argv[argv.index("--schema") + 1]
    with open(argv[1], encoding="utf-8") as f:
        log = json.load(f)
    schema_errors(log, schema)
    # Types are what the schema says only when it found no error.
    count = github_checks(log) if not errors else 0
    if not errors and count < min_results:
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
