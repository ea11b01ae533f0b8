#!/usr/bin/env bash
# Builds the Python SDK as a partner gets it: a virtual environment with the build and check
# tools (.venv, kept between runs), mypy --strict over the package, then the wheel and the sdist
# in dist/ (python -m build). `build.sh venv` stops after the environment. One run at a time: the
# tests that call it may start together.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"

exec 9>.build.lock
flock 9

if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
# The tools, once per set of requirements (the stamp); --retries 0: an index that cannot be
# reached is passed over at once instead of after a minute of retries per package.
TOOLS='build>=1,<2 setuptools>=61 wheel mypy>=1.10 pytest>=8,<10 cryptography>=3.4 typing_extensions>=4'
if [ "$(cat .venv/.tools 2>/dev/null)" != "$TOOLS" ]; then
  # shellcheck disable=SC2086
  .venv/bin/python -m pip install -q --disable-pip-version-check --retries 0 $TOOLS
  echo "$TOOLS" >.venv/.tools
fi

[ "${1:-}" = venv ] && exit 0

.venv/bin/python -m mypy --strict src
# The oldest Python the package supports (requires-python), where one is installed: every module
# compiles there (mypy checks 3.10 syntax at the oldest). Running needs cryptography for it too.
PY39="$(ls -d "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.9*/bin/python3 /usr/bin/python3.9 2>/dev/null | tail -n 1 || true)"
if [ -n "$PY39" ]; then
  find src -name '*.py' -print0 | xargs -0 "$PY39" -c '
import sys
for path in sys.argv[1:]:
    with open(path, encoding="utf-8") as source:
        compile(source.read(), path, "exec")
print("Python", sys.version.split()[0], "compiles", len(sys.argv) - 1, "modules")'
fi
rm -rf dist
.venv/bin/python -m build --no-isolation --outdir dist . >/dev/null
ls dist
