"""Shared engine infrastructure: errors, session file schema and validation, information theory.

The names below are imported from their submodules on first use (PEP 562 module
``__getattr__``), so importing one light submodule such as :mod:`engines.core.errors` or
:mod:`engines.core.resources` does not import numpy or scipy (the desktop app's start-up).
"""
from __future__ import annotations

import importlib

#: Public name -> the submodule that defines it.
_EXPORTS = {
    "Cancelled": "errors", "ContradictionError": "errors", "EngineError": "errors",
    "SessionFormatError": "errors", "check_cancel": "errors",
    "entropy_bits": "info", "kl_divergence_bits": "info", "mutual_information_bits": "info",
    "wilson_interval": "stats", "Reader": "schema",
}

__all__ = list(_EXPORTS)


def __getattr__(name: str):
    try:
        module = _EXPORTS[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))
