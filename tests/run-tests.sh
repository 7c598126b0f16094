#!/usr/bin/env bash
# Installs what is missing, builds, and runs every test: the rule-model unit
# tests and the lit tests (ctest runs both).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/.ci/build.sh"
ctest --test-dir "$root/build" --output-on-failure
