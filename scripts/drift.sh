#!/usr/bin/env bash
# What the newest releases would break, seen before a lock refresh has to suffer it:
# the quick part of the suite (no browser, no fuzzing) against every dependency at its
# newest release (no lock), then, if anything fails, each package that differs from the
# lock upgraded alone, to say which one breaks what. One line per package; it never
# fails (exit 0): the locks decide what the two commands install, this only reports.
#   bash scripts/drift.sh
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say() { echo "drift: $*"; }
pip_q() { "$1/bin/python" -m pip install -q --disable-pip-version-check "${@:2}" >"$tmp/pip.log" 2>&1; }
quick() {  # PYTHON [TESTS...]: the quick tests, their failures' ids in $tmp/failed
  "$1" -m pytest -q -n auto -p no:cacheprovider -m 'not slow and not fuzz' "${@:2}" >"$tmp/pytest.log" 2>&1
  sed -n 's/^FAILED \([^ ]*\).*/\1/p; s/^ERROR \([^ ]*\).*/\1/p' "$tmp/pytest.log" | sort -u >"$tmp/failed"
}

python3 -m venv "$tmp/newest" && python3 -m venv "$tmp/locked" || { say "cannot make virtual environments"; exit 0; }
pip_q "$tmp/newest" -e '.[test]' || { say "the newest releases do not install:"; tail -n 3 "$tmp/pip.log"; exit 0; }
pip_q "$tmp/locked" --require-hashes -r lock/test.txt && pip_q "$tmp/locked" --no-deps --no-build-isolation -e . \
  || { say "the lock does not install:"; tail -n 3 "$tmp/pip.log"; exit 0; }
# name locked newest, for each package whose newest release is not the locked one
"$tmp/newest/bin/python" - "$tmp/locked/bin/python" >"$tmp/changed" <<'PY'
import json, subprocess, sys
def versions(python):
    out = subprocess.run([python, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
                         capture_output=True, text=True, check=True).stdout
    return {p["name"].lower(): p["version"] for p in json.loads(out)}
locked, newest = versions(sys.argv[1]), versions(sys.executable)
for name in sorted(newest):
    if name not in ("pip", "drunter-notation") and locked.get(name) != newest[name]:
        print(name, locked.get(name, "-"), newest[name])
PY
if [ ! -s "$tmp/changed" ]; then
  say "every dependency's newest release is the locked one"
  exit 0
fi
quick "$tmp/newest/bin/python"
if [ ! -s "$tmp/failed" ]; then
  while read -r name locked newest; do say "$name $locked -> $newest: the quick tests pass"; done <"$tmp/changed"
  exit 0
fi
cp "$tmp/failed" "$tmp/all-failed"
say "$(wc -l <"$tmp/all-failed") quick tests fail with every newest release; each package alone:"
while read -r name locked newest; do
  if ! pip_q "$tmp/locked" "$name==$newest"; then
    say "$name $locked -> $newest: does not install beside the lock"
  else
    mapfile -t ids <"$tmp/all-failed"
    quick "$tmp/locked/bin/python" "${ids[@]}"
    if [ -s "$tmp/failed" ]; then
      say "$name $locked -> $newest: breaks $(wc -l <"$tmp/failed"): $(head -n 3 "$tmp/failed" | tr '\n' ' ')"
    else
      say "$name $locked -> $newest: breaks none of them"
    fi
  fi
  pip_q "$tmp/locked" --require-hashes -r lock/test.txt  # back to the lock for the next one
done <"$tmp/changed"
exit 0
