#!/usr/bin/env bash
# Build the one-folder bundle dist/deduction-desk/ (run from anywhere; needs `pip install '.[bundle]'`).
# Clean build: --clean empties PyInstaller's cache and the old bundle is replaced (--noconfirm).
# PYTHON picks the interpreter (default: python3 on PATH, e.g. the active virtualenv's).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
DIST=${DIST:-dist}
WORK=${WORK:-build/pyinstaller}
start=$(date +%s)
"$PYTHON" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$WORK" packaging/deduction-desk.spec
echo "built in $(( $(date +%s) - start )) s: $(du -sh "$DIST/deduction-desk" | cut -f1)  $DIST/deduction-desk/"
echo "run: $DIST/deduction-desk/deduction-desk   (headless check: --self-test)"
