#!/usr/bin/env bash
# Rewrites the dependency counts between layers in docs/ARCHITECTURE.md from the sources
# (guest's LayerCountsTest computes them; without the property it checks the page instead).
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -o -q test -pl guest -Dtest=LayerCountsTest -Dsurefire.failIfNoSpecifiedTests=false -Dpvtlb.docs.write=true
