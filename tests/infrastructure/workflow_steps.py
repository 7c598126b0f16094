#!/usr/bin/env python3
"""Runs steps of a GitHub Actions workflow offline (needs PyYAML).

usage: workflow_steps.py WORKFLOW --steps ID,ID --repo DIR --work DIR
                         [--path DIR]

Each step (by its id) runs its `run:` script with bash, in WORK, where REPO's
top-level entries are linked (so repository-relative paths resolve and the
outputs stay in WORK); --path goes first in PATH (the installed package's
bin). Prints "step ID: exit N" for each and exits 0 (the exit codes are for
the caller to check), or 2 when a step is missing or has no run script.
"""
import argparse
import os
import subprocess
import sys

import yaml


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workflow")
    parser.add_argument("--steps", required=True)
    parser.add_argument("--repo", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--path")
    args = parser.parse_args()
    with open(args.workflow) as f:
        workflow = yaml.safe_load(f)
    steps = {}
    for job in workflow.get("jobs", {}).values():
        for step in job.get("steps", []):
            if "id" in step:
                steps[step["id"]] = step
    os.makedirs(args.work, exist_ok=True)
    repo = os.path.abspath(args.repo)
    for entry in os.listdir(repo):
        if entry in (".git", "build"):
            continue
        link = os.path.join(args.work, entry)
        if not os.path.lexists(link):
            os.symlink(os.path.join(repo, entry), link)
    env = dict(os.environ)
    if args.path:
        env["PATH"] = os.path.abspath(args.path) + os.pathsep + env["PATH"]
    for sid in args.steps.split(","):
        step = steps.get(sid)
        if not step or "run" not in step:
            print("error: no step with id '%s' and a run script" % sid)
            return 2
        code = subprocess.run(["bash", "-e", "-c", step["run"]],
                              cwd=args.work, env=env,
                              stdout=sys.stderr, stderr=sys.stderr).returncode
        print("step %s: exit %d" % (sid, code), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
