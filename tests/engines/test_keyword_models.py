"""The model dataclasses of every game — ``Setup``, the events, the options classes (Spyfall's
``PlayerModel`` and ``TableAids``, Inkognito's ``Deception``, Egghead's ``QuestionChoice``) — take
keyword arguments only, so a field added to one can never shift a caller's positional argument
into the wrong field (the suggestion-model race once passed the opponents' rho as Cluedo's
``dice`` that way, and measured nothing)."""
import dataclasses
import inspect
import sys

import pytest

import engines

GAMES = list(engines.GAMES)


def model_dataclasses(game: str) -> list[type]:
    """Every dataclass defined in the game's model module (the module that defines ``Setup``)."""
    mod = engines.game_module(game)
    model = sys.modules[mod.Setup.__module__]
    return [obj for obj in vars(model).values()
            if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and obj.__module__ == model.__name__]


@pytest.mark.parametrize("game", GAMES)
def test_every_model_dataclass_is_keyword_only(game):
    classes = model_dataclasses(game)
    names = {c.__name__ for c in classes}
    assert "Setup" in names and len(classes) >= 2, names
    positional = [f"{c.__name__}.{f.name}" for c in classes for f in dataclasses.fields(c)
                  if f.init and not f.kw_only]
    assert positional == [], f"{game}: fields that can be passed by position: {positional}"
    for c in classes:
        params = [p for p in inspect.signature(c).parameters.values()]
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params), (c, params)


@pytest.mark.parametrize("game", GAMES)
def test_a_positional_setup_is_refused(game):
    mod = engines.game_module(game)
    setup = mod.default_setup()
    values = [getattr(setup, f.name) for f in dataclasses.fields(setup) if f.init]
    with pytest.raises(TypeError):
        mod.Setup(*values)
    assert mod.Setup(**{f.name: getattr(setup, f.name) for f in dataclasses.fields(setup) if f.init}) == setup


def test_the_event_classes_are_among_them():
    """Each game's events (one class per ``EVENT_TYPES`` entry, found through ``to_json``) are
    model dataclasses, so the check above covers them."""
    for game in GAMES:
        mod = engines.game_module(game)
        classes = model_dataclasses(game)
        types = set()
        for c in classes:
            if c.__name__ == "Setup" or "to_json" not in vars(c):
                continue
            fields = {f.name for f in dataclasses.fields(c)}
            sample = {f: None for f in fields}
            try:
                types.add(c(**sample).to_json().get("type"))
            except Exception:   # a to_json that needs real values: its type is in its source
                types.update(t for t in mod.EVENT_TYPES if f'"{t}"' in inspect.getsource(c))
        assert set(mod.EVENT_TYPES) <= types, (game, set(mod.EVENT_TYPES) - types)
