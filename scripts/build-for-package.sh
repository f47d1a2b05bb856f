#!/usr/bin/env bash
# `npm pack` (prepack): a clean build of the service and the dashboard, so the package holds
# exactly what the sources make today and nothing a removed source left behind in dist/.
# Only dist/ (ignored by git) is written; npm pack writes the tarball where it is told.
set -euo pipefail
cd "$(dirname "$0")/.."
rm -rf dist
bash scripts/build-if-stale.sh
