#!/usr/bin/env bash
# The npm packages, installed from the lock file when this checkout has none yet, so that
# `npm start` and `npm test` work on a fresh clone.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x node_modules/.bin/tsc ]; then
  echo "sensorhub: installing the npm packages (npm ci)…"
  npm ci --no-audit --no-fund
fi
