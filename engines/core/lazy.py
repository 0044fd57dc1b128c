"""Packages whose public names are imported from their submodules on first use.

A game's package (``engines.cluedo`` …) re-exports its public API from several submodules.
Importing them all when the package loads made ``python -m engines parse`` pay for the
simulator, the explanations and the diagnosis it never uses. :func:`lazy_package` turns a
package into one that imports a submodule the first time one of its names is read, so the API
stays ``engines.cluedo.simulate(...)`` while ``parse`` imports only what it reads. The package's
``__class__`` becomes a module subclass whose class attributes stand for the public names (the
Python Language Reference, "Customizing module attribute access", 3.5 and later; PEP 562,
Levkivskyi 2017, describes the simpler module ``__getattr__``, which the engine contract's
``isinstance`` checks would not see: they read attributes with :func:`inspect.getattr_static`).

One trap is handled here: several games export a function named like the submodule that
defines it (``parse``, ``recommend``, ``simulate``, ``explain``). Importing such a submodule
makes the import system set the package's attribute to the *module*, which would shadow the
function. The package refuses that assignment, so the name keeps meaning the function, as it
did when the package imported everything at once.
"""
from __future__ import annotations

import importlib
import sys
from types import ModuleType


class _Export:
    """A public name of a :class:`LazyPackage`, as a class attribute (a non-data descriptor).

    Reading it imports the submodule that defines it and keeps every name of that submodule in
    the package's own ``__dict__``, which later reads find first. Being a class attribute, the
    name is visible to :func:`inspect.getattr_static`, which ``isinstance`` against a
    ``runtime_checkable`` Protocol uses since Python 3.12 (the engine contract's checks).
    """

    def __init__(self, name: str, where: str):
        self.name, (self.module, _, self.attr) = name, where.partition(":")
        self.attr = self.attr or name

    def __get__(self, package, owner=None):
        if package is None:
            return self
        sub = importlib.import_module(f"{package.__name__}.{self.module}")
        for export in vars(type(package)).values():
            if isinstance(export, _Export) and export.module == self.module:
                package.__dict__[export.name] = getattr(sub, export.attr)
        return package.__dict__[self.name]


class LazyPackage(ModuleType):
    """A package module whose public names are imported on first read (see the module doc).

    Made by :func:`lazy_package`, one subclass per package, holding one :class:`_Export` per
    public name.
    """

    def __setattr__(self, name: str, value) -> None:
        # the import system binds a submodule on its package after importing it: keep a public
        # name of the same spelling (a function) rather than the module
        if (isinstance(value, ModuleType) and isinstance(vars(type(self)).get(name), _Export)
                and value.__name__ == f"{self.__name__}.{name}"):
            return
        super().__setattr__(name, value)


#: The names every game's ``parse`` module defines: the quick entry's functions and the
#: check of a new entry (engines/CONTRACT.md, ``QuickEntryEngine`` and ``CheckingEngine``).
PARSE_NAMES = ("complete", "contradiction", "format_event", "parse", "preview")
#: The names every game's ``simulate`` module defines (``python -m engines simulate GAME``).
SIMULATE_NAMES = ("SimConfig", "SimulationResult", "add_simulate_arguments", "simulate",
                  "simulate_main")


def exports_of(submodule: str, names) -> dict[str, str]:
    """``{name: submodule}`` for each of ``names``: a part of :func:`lazy_package`'s table."""
    return dict.fromkeys(names, submodule)


def lazy_package(name: str, exports: dict[str, str]) -> list[str]:
    """Make the already-imported package ``name`` import its public names on first use.

    Call it at the end of the package's ``__init__``: ``__all__ = lazy_package(__name__,
    {"infer": "inference", "Posterior": "inference:CluedoPosterior", ...})``.

    Args:
        name: the package's ``__name__`` (it must be in :data:`sys.modules`).
        exports: public name -> ``"submodule"`` (the name is defined there under the same
            spelling) or ``"submodule:attribute"`` (an alias).

    Returns:
        The public names, for ``__all__``.

    Raises:
        KeyError: ``name`` is not an imported module.
    """
    module = sys.modules[name]
    attrs = {public: _Export(public, where) for public, where in exports.items()}
    module.__class__ = type(f"LazyPackage({name})", (LazyPackage,), attrs)
    return list(exports)
