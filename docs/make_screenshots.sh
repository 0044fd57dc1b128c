#!/usr/bin/env bash
# Regenerate the screenshots of the README and the guide from the bundled example sessions (headless).
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
for game in cluedo inkognito egghead guesswho spyfall; do
  if [ -f "resources/examples/$game.json" ]; then
    python -m desktop "resources/examples/$game.json" --tab "$game" --size 1280x800 --color-scheme light \
      --screenshot "docs/screenshots/$game.png"
    echo "docs/screenshots/$game.png"
  fi
done
# The in-app guide shows the same pictures (resources/guide/img is shipped with the package).
for png in docs/screenshots/{cluedo,inkognito,egghead,guesswho,spyfall,cluedo-who-is-close}.png; do
  [ -f "$png" ] && cp "$png" resources/guide/img/
done
