#!/usr/bin/env bash
# Set up drunter-notation on a fresh machine (Python >= 3.11 with pip).
#   bash scripts/setup.sh          the tool, Graphviz for diagrams
#   bash scripts/setup.sh --test   also the test tools and Chromium for the browser test
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

pkgs="graphviz"
[ "$want_test" = 1 ] && pkgs="$pkgs chromium"
if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
  missing=""
  for p in $pkgs; do dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    echo "setup: installing$missing (apt)" >&2
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null; } \
      || echo "setup: could not install$missing; diagrams or the browser test will be skipped" >&2
  fi
else
  echo "setup: not root or no apt-get; install '$pkgs' yourself for diagrams and the browser test" >&2
fi

if [ "$want_test" = 1 ]; then
  python3 -m pip install -q --disable-pip-version-check -e '.[test]'
else
  python3 -m pip install -q --disable-pip-version-check .
fi
echo "setup: done ($(drunter --version))" >&2
