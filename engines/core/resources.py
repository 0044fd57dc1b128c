"""Locate the data files in ``resources/`` (installed with the package, or next to the source)."""
from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any


@lru_cache(maxsize=1)
def resources_root() -> Path:
    """Directory of the ``resources`` package (works from a checkout, a wheel or a bundle)."""
    if getattr(sys, "frozen", False) and hasattr(sys, "_MEIPASS"):
        bundled = Path(sys._MEIPASS) / "resources"
        if bundled.is_dir():
            return bundled
    import resources  # the data package

    return Path(resources.__file__).resolve().parent


def resource_path(*parts: str) -> Path:
    """Path of a file under ``resources/``, e.g. ``resource_path("cluedo", "editions.json")``."""
    return resources_root().joinpath(*parts)


def load_json_resource(*parts: str) -> Any:
    """Parse a JSON file under ``resources/``."""
    with open(resource_path(*parts), encoding="utf-8") as fh:
        return json.load(fh)


def save_json_result(obj: Any, path: str) -> None:
    """Write a study's result as indented JSON (one trailing newline) to ``path`` — by default a
    file under ``resources/`` that the app reads back with :func:`load_json_resource`."""
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(obj, fh, indent=1)
        fh.write("\n")
