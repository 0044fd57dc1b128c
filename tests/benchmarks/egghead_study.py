"""The Egghead study (docs/egghead-simulation.md): the same command as
``python -m engines.egghead.study``, whose code is ``engines/egghead/study.py``."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engines.egghead.study import main  # noqa: E402 (after the set-up above)

if __name__ == "__main__":
    sys.exit(main())
