#!/usr/bin/env python3
"""Checks the ```yaml blocks of Markdown files.

Every block must parse (PyYAML, python3-yaml). A block with `jobs` is a
GitHub Actions workflow: it needs `on`, and each job `runs-on` and `steps`;
a block that is a list is a list of steps. A step has `uses` or `run` (not
both) and only the keys GitHub knows; a job only the job keys. This is no
actionlint (not packaged for Debian 12): expressions, action inputs and
shell scripts are not checked.

usage: docs_yaml_check.py FILE.md...
"""

import re
import sys

import yaml

JOB_KEYS = {"name", "needs", "permissions", "runs-on", "environment",
            "concurrency", "outputs", "env", "defaults", "if", "steps",
            "timeout-minutes", "strategy", "continue-on-error", "container",
            "services", "uses", "with", "secrets"}
STEP_KEYS = {"id", "if", "name", "uses", "run", "working-directory", "shell",
             "with", "env", "continue-on-error", "timeout-minutes"}
errors = []


def check_step(step, where):
    if not isinstance(step, dict):
        errors.append("%s: not a mapping" % where)
        return
    unknown = set(step) - STEP_KEYS
    if unknown:
        errors.append("%s: unknown keys %s" % (where, sorted(unknown)))
    if ("uses" in step) == ("run" in step):
        errors.append("%s: needs exactly one of 'uses' and 'run'" % where)


def check_workflow(doc, where):
    # YAML 1.1 (PyYAML) reads the key `on` as the boolean true.
    if "on" not in doc and True not in doc:
        errors.append("%s: no 'on'" % where)
    for name, job in (doc.get("jobs") or {}).items():
        jwhere = "%s: job %s" % (where, name)
        if not isinstance(job, dict):
            errors.append("%s: not a mapping" % jwhere)
            continue
        unknown = set(job) - JOB_KEYS
        if unknown:
            errors.append("%s: unknown keys %s" % (jwhere, sorted(unknown)))
        if "runs-on" not in job:
            errors.append("%s: no 'runs-on'" % jwhere)
        steps = job.get("steps")
        if not isinstance(steps, list) or not steps:
            errors.append("%s: no steps" % jwhere)
            continue
        for i, step in enumerate(steps):
            check_step(step, "%s step %d" % (jwhere, i + 1))


def main(files):
    blocks = workflows = 0
    for path in files:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for match in re.finditer(r"^```yaml\n(.*?)^```", text, re.S | re.M):
            line = text.count("\n", 0, match.start()) + 1
            where = "%s:%d" % (path, line)
            blocks += 1
            try:
                doc = yaml.safe_load(match.group(1))
            except yaml.YAMLError as e:
                errors.append("%s: %s" % (where, str(e).replace("\n", " ")))
                continue
            if isinstance(doc, dict) and "jobs" in doc:
                workflows += 1
                check_workflow(doc, where)
            elif isinstance(doc, list):
                for i, step in enumerate(doc):
                    check_step(step, "%s step %d" % (where, i + 1))
    for e in errors:
        print("docs_yaml_check: error: " + e)
    if errors:
        return 1
    print("docs_yaml_check: %d YAML blocks, %d workflows" % (blocks, workflows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
