#!/usr/bin/env bash
# CI, after the tests: build the wheel, install it into a fresh virtual environment outside the checkout,
# and run .ci/wheel_smoke.py there from a directory outside the checkout — what installing the regkit wheel
# gives a user who has no clone (the bundled world, `regkit serve`, `regkit world build`, --version).
#
# The wheel is built from a copy of the files git would commit (tracked, plus untracked and not
# ignored), so the build writes no build/ or *.egg-info into the checkout and packs no stale build/lib.
# Prints the wheel's size, how long `pip install` of it took and how long the smoke took.
#
# Uses `python3` (the active environment, in CI .venv-ci), or $PYTHON. Set REGKIT_SMOKE_KEEP=1 to keep
# the working directory for inspection.
set -euo pipefail

checkout="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
work="$(mktemp -d "${TMPDIR:-/tmp}/regkit-wheel-smoke.XXXXXX")"
if [ "${REGKIT_SMOKE_KEEP:-}" = "1" ]; then
  echo "wheel smoke: working directory $work (kept)"
else
  trap 'rm -rf "$work"' EXIT
fi
case "$work" in "$checkout"/*) echo "wheel smoke: $work is inside the checkout; set TMPDIR elsewhere" >&2; exit 1;; esac

now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# 1. The sources, as git would commit them.
mkdir -p "$work/src" "$work/dist" "$work/run"
if git -C "$checkout" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$checkout" && git ls-files -z --cached --others --exclude-standard \
     | tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$work/src"
else
  (cd "$checkout" && tar --exclude=./.git --exclude='./.venv*' --exclude=./build --exclude=./dist \
     --exclude='*.egg-info' --exclude='__pycache__' -cf - .) | tar -xf - -C "$work/src"
fi

# 2. The wheel (build isolation: pip fetches the build backend named in pyproject.toml).
started="$(now)"
"$python" -m pip wheel --no-deps --quiet --disable-pip-version-check --wheel-dir "$work/dist" "$work/src"
wheel="$(ls "$work"/dist/regkit-*.whl)"
size="$(wc -c <"$wheel")"
echo "wheel smoke: built $(basename "$wheel") in $(since "$started") s:" \
  "$(awk -v s="$size" 'BEGIN { printf "%.1f MB (%.1f MiB)", s / 1e6, s / 1048576 }')"

# 3. A fresh virtual environment outside the checkout, and the wheel installed into it.
"$python" -m venv "$work/venv"
started="$(now)"
"$work/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$wheel"
echo "wheel smoke: pip install of the wheel into a fresh venv took $(since "$started") s"

# 4. The smoke, from outside the checkout, with nothing pointing regkit at the checkout or a user's files.
cp "$checkout/.ci/wheel_smoke.py" "$work/run/"
started="$(now)"
(
  cd "$work/run"
  env -u PYTHONPATH -u REGKIT_DATA_DIR -u REGKIT_API_KEY -u REGKIT_BASE_URL -u REGKIT_LOCAL_STATE \
      -u REGKIT_LOCAL_SECRET_KEY -u REGKIT_CACHE_DIR \
      HOME="$work/home" XDG_CACHE_HOME="$work/home/cache" XDG_DATA_HOME="$work/home/data" \
      XDG_CONFIG_HOME="$work/home/config" MPLBACKEND=Agg \
      "$work/venv/bin/python" -I wheel_smoke.py --checkout "$checkout" --source "$work/src"
)
echo "wheel smoke: passed in $(since "$started") s"
