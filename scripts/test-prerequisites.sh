#!/usr/bin/env bash
# What the test suite drives for real, made ready before it runs: the npm packages; Chromium,
# ffmpeg and Mosquitto (installed with apt-get when missing and this is root); PostgreSQL at
# TEST_DATABASE_URL and Mosquitto on 127.0.0.1:1883 answering (the local ones started when not).
# It says what is missing and how to get it rather than letting those tests fail one by one.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/install-if-missing.sh

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || missing+=(ffmpeg)
command -v mosquitto >/dev/null || missing+=(mosquitto)
command -v mosquitto_pub >/dev/null || missing+=(mosquitto-clients)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "sensorhub tests: installing ${missing[*]} (apt-get)…"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "sensorhub tests: missing ${missing[*]}; install them: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# PostgreSQL: the local default unless TEST_DATABASE_URL names another; `none` tests SQLite only.
url="${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}"
if [ "$url" != none ]; then
  pg_up() { pg_isready -q -d "$url" 2>/dev/null; }
  if ! pg_up && [[ "$url" == *@127.0.0.1:5432/* || "$url" == *@localhost:5432/* ]] && command -v pg_ctlcluster >/dev/null; then
    echo "sensorhub tests: PostgreSQL is not answering; starting the local cluster…"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start || true
    for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  fi
  if ! pg_up; then
    echo "sensorhub tests: PostgreSQL does not answer at $url. Start it, set TEST_DATABASE_URL to one that answers, or TEST_DATABASE_URL=none to test SQLite only." >&2
    exit 1
  fi
fi

broker_up() { (exec 3<>/dev/tcp/127.0.0.1/1883) 2>/dev/null; }
if [ -z "${TEST_MQTT_URL:-}" ] && ! broker_up; then
  echo "sensorhub tests: Mosquitto is not answering on 127.0.0.1:1883; starting it…"
  if [ -f /etc/mosquitto/mosquitto.conf ]; then mosquitto -d -c /etc/mosquitto/mosquitto.conf || true; else mosquitto -d || true; fi
  for _ in $(seq 1 30); do broker_up && break; sleep 1; done
  broker_up || { echo "sensorhub tests: Mosquitto did not start on 127.0.0.1:1883" >&2; exit 1; }
fi
