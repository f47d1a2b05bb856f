#!/usr/bin/env bash
# Builds dist/ (service and dashboard) only when a source or a build setting changed since the
# last build, so `npm start` after no change starts at once. The last build leaves a stamp in
# dist/ whose time is when that build began: anything newer than it is not in dist/ yet.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=dist/.build-stamp
inputs=(src web package.json package-lock.json tsconfig.json tsconfig.build.json)
existing=()
for input in "${inputs[@]}"; do [ -e "$input" ] && existing+=("$input"); done

if [ -f "$stamp" ] && [ -z "$(find "${existing[@]}" -newer "$stamp" -print -quit)" ]; then
  exit 0
fi
if [ -f "$stamp" ]; then
  echo "sensorhub: building dist/ (sources changed since the last build)" >&2
else
  echo "sensorhub: building dist/ (no build yet)" >&2
fi
mkdir -p dist
# Stamped with the time the build starts: a file saved while it runs is built again next time.
touch dist/.build-stamp.next
npm run build --silent
mv -f dist/.build-stamp.next "$stamp"
