#!/usr/bin/env bash
# Regenerate the screenshots of the README and the guide from the bundled example sessions
# (headless by default; with DISPLAY set and QT_QPA_PLATFORM=xcb, on a real X server such as
# Xvfb with a window manager).
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}
# every tab at 1280×800, light ($game.png) and dark ($game-dark.png), in the default view and in
# the Details view (View → Show details: $game-details.png, $game-details-dark.png)
for game in cluedo inkognito egghead guesswho spyfall; do
  if [ -f "resources/examples/$game.json" ]; then
    for view in plain details; do
      for scheme in light dark; do
        out="docs/screenshots/$game"
        flags=()
        if [ "$view" = details ]; then out="$out-details"; flags=(--details); fi
        [ "$scheme" = dark ] && out="$out-dark"
        out="$out.png"
        python -m desktop "resources/examples/$game.json" --tab "$game" --size 1280x800 \
          --color-scheme "$scheme" --screenshot "$out" "${flags[@]}"
        echo "$out"
      done
    done
  fi
done
# the Cluedo tab in German and French, light and dark (cluedo-de.png, cluedo-de-dark.png, …):
# the language as the system's (LANGUAGE), with a fresh settings folder so no saved choice wins
for lang in de fr; do
  for scheme in light dark; do
    out="docs/screenshots/cluedo-$lang"
    [ "$scheme" = dark ] && out="$out-dark"
    out="$out.png"
    config=$(mktemp -d)
    XDG_CONFIG_HOME="$config" LANGUAGE="$lang" LANG="${lang}_$(echo "$lang" | tr a-z A-Z).UTF-8" \
      python -m desktop "resources/examples/cluedo.json" --tab cluedo --size 1280x800 \
      --color-scheme "$scheme" --screenshot "$out"
    rm -rf "$config"
    echo "$out"
  done
done
# Cluedo's Who is close? and Board pages (cluedo-who-is-close.png, cluedo-board.png)
python docs/make_pane_screenshots.py docs/screenshots
# The in-app guide shows the same pictures (resources/guide/img is shipped with the package).
for png in docs/screenshots/{cluedo,inkognito,egghead,guesswho,spyfall,cluedo-who-is-close}.png; do
  [ -f "$png" ] && cp "$png" resources/guide/img/
done
