"""Recovery files are read by the same reader as File → Open: a session inside one with a key
given twice or a misspelled event key is refused with its path, not restored changed."""
from __future__ import annotations

import json

import pytest

from engines.core.errors import SessionFormatError
from engines.core.resources import resource_path


def _example() -> dict:
    return json.loads(resource_path("examples", "cluedo.json").read_text(encoding="utf-8"))


def test_a_recovery_file_with_a_second_events_key_is_refused(tmp_path):
    from desktop.storage.restore import read_recovery_file

    session = json.dumps(_example())
    text = '{"sessions": [' + session[:-1] + ', "events": []}], "paths": [null]}'
    path = tmp_path / "instance-x.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SessionFormatError) as exc:
        read_recovery_file(str(path))
    assert exc.value.path == "$.sessions[0].events"
    assert 'duplicate key "events" at $.sessions[0]' in exc.value.message


def test_a_recovery_file_with_a_misspelled_event_key_is_refused(tmp_path):
    from desktop.storage.restore import read_recovery_file

    obj = _example()
    obj["events"][1]["refutter"] = obj["events"][1].pop("refuter")
    obj["events"][1].pop("shown")
    path = tmp_path / "instance-y.json"
    path.write_text(json.dumps({"sessions": [obj], "paths": [None]}), encoding="utf-8")
    with pytest.raises(SessionFormatError) as exc:
        read_recovery_file(str(path))
    assert exc.value.path == "$.sessions[0].events[1].refutter"   # the very key, inside the session
    assert "unknown key 'refutter' in a suggestion event; did you mean 'refuter'?" \
        in exc.value.message
