#!/usr/bin/env bash
# Build the one-folder bundle dist/deduction-desk/ (run from anywhere; needs `pip install '.[bundle]'`).
set -euo pipefail
cd "$(dirname "$0")/.."
DIST=${DIST:-dist}
WORK=${WORK:-build/pyinstaller}
python -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$DIST" --workpath "$WORK" packaging/deduction-desk.spec
du -sh "$DIST/deduction-desk"
echo "run: $DIST/deduction-desk/deduction-desk   (headless check: --self-test)"
