#!/usr/bin/env bash
# Regenerate the screenshots of the README and the guide from the bundled example sessions (headless).
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# every tab at 1280×800, light ($game.png) and dark ($game-dark.png)
for game in cluedo inkognito egghead guesswho spyfall; do
  if [ -f "resources/examples/$game.json" ]; then
    for scheme in light dark; do
      out="docs/screenshots/$game.png"
      [ "$scheme" = dark ] && out="docs/screenshots/$game-dark.png"
      python -m desktop "resources/examples/$game.json" --tab "$game" --size 1280x800 \
        --color-scheme "$scheme" --screenshot "$out"
      echo "$out"
    done
  fi
done
# Cluedo's Who is close? and Board pages (cluedo-who-is-close.png, cluedo-board.png)
python docs/make_pane_screenshots.py docs/screenshots
# The in-app guide shows the same pictures (resources/guide/img is shipped with the package).
for png in docs/screenshots/{cluedo,inkognito,egghead,guesswho,spyfall,cluedo-who-is-close}.png; do
  [ -f "$png" ] && cp "$png" resources/guide/img/
done
