"""Opponent profiles kept across games: each opponent's Beta(a, b) belief about θ.

θ is how often the true statement of a player-question answer is the lone statement of the
other kind (see :mod:`engines.inkognito.likelihood`). After a game, the θ posterior of an
opponent (a grid distribution from :func:`engines.inkognito.infer`) is moment-matched to a Beta
and stored; the next game starts from it (``Setup.deception.priors``), so θ is learned over
many games. Pure Python JSON; writes are atomic (temporary file + ``os.replace``).

File format::

    {"format": "deduction-desk.inkognito-profiles", "version": 1,
     "opponents": {"Ann": {"a": 2.5, "b": 6.1, "games": 3}}}
"""
from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path
from typing import Sequence

from engines.core.errors import SessionFormatError
from engines.inkognito.model import DEFAULT_DECEPTION_PRIOR

FORMAT = "deduction-desk.inkognito-profiles"
FILENAME = "inkognito-profiles.json"


def beta_from_moments(mean: float, var: float) -> tuple:
    """Beta (a, b) with the given mean (0..1) and variance (method of moments).

    Falls back to a concentration of 2 when the variance is too large for a Beta.
    """
    mean = min(max(float(mean), 1e-6), 1 - 1e-6)
    lim = mean * (1 - mean)
    s = lim / var - 1.0 if var > 0 else 1e6
    s = min(max(s, 2.0), 1e6)
    return mean * s, (1 - mean) * s


class ProfileStore:
    """Per-opponent Beta parameters of θ, in a JSON file.

    Args:
        path: a directory (the app's data folder; the file is ``inkognito-profiles.json``
            in it) or a file path.
    """

    def __init__(self, path):
        p = Path(path)
        self.path = p / FILENAME if p.is_dir() or not p.suffix else p
        self.profiles: dict[str, dict] = {}

    def load(self) -> "ProfileStore":
        """Read the file (a missing file is an empty store). Raises SessionFormatError on a
        corrupt file (with the file name)."""
        self.profiles = {}
        if not self.path.exists():
            return self
        try:
            obj = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SessionFormatError("$", f"cannot read the profiles ({exc})", str(self.path)) \
                from None
        if not isinstance(obj, dict) or obj.get("format") != FORMAT \
                or not isinstance(obj.get("opponents"), dict):
            raise SessionFormatError("$", "not an Inkognito profile file", str(self.path))
        for name, v in obj["opponents"].items():
            try:
                a, b, g = float(v["a"]), float(v["b"]), int(v.get("games", 0))
            except (TypeError, KeyError, ValueError):
                raise SessionFormatError(f"$.opponents.{name}", "expected {a, b, games}",
                                         str(self.path)) from None
            if not (a > 0 and b > 0 and math.isfinite(a) and math.isfinite(b)):
                raise SessionFormatError(f"$.opponents.{name}", "a and b must be positive",
                                         str(self.path))
            self.profiles[name] = {"a": a, "b": b, "games": g}
        return self

    def prior(self, name: str, default: tuple = DEFAULT_DECEPTION_PRIOR) -> tuple:
        """Beta (a, b) of ``name`` (``default`` when unknown)."""
        p = self.profiles.get(name)
        return (p["a"], p["b"]) if p else tuple(default)

    def update(self, name: str, grid: Sequence[float], probabilities: Sequence[float]) -> tuple:
        """Replace ``name``'s Beta by the moment-matched θ posterior of a finished game
        (``grid``, ``probabilities``: arrays of shape (G,)); returns the new (a, b)."""
        m = sum(g * p for g, p in zip(grid, probabilities))
        v = sum((g - m) ** 2 * p for g, p in zip(grid, probabilities))
        a, b = beta_from_moments(m, v)
        games = self.profiles.get(name, {}).get("games", 0) + 1
        self.profiles[name] = {"a": a, "b": b, "games": games}
        return a, b

    def update_counts(self, name: str, lone: int, pair: int) -> tuple:
        """Conjugate update when the truth is known: ``lone`` answers whose only true
        statement was the lone one, ``pair`` others (player questions)."""
        a, b = self.prior(name)
        games = self.profiles.get(name, {}).get("games", 0) + 1
        self.profiles[name] = {"a": a + lone, "b": b + pair, "games": games}
        return a + lone, b + pair

    def save(self) -> None:
        """Write the file atomically (creates the folder)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "version": 1, "opponents": self.profiles}
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=".profiles-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2, ensure_ascii=False)
            os.replace(tmp, self.path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
