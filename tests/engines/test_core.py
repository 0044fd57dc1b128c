"""Engine core: import boundary, schema reader errors, information theory helpers."""
import json
import subprocess
import sys

import numpy as np
import pytest

from engines.core.errors import SessionFormatError
from engines.core.info import entropy_bits, kl_divergence_bits, mutual_information_bits
from engines.core.schema import Reader, parse_session


def test_engines_never_import_qt():
    code = (
        "import sys, pkgutil, importlib, engines\n"
        "for m in pkgutil.walk_packages(engines.__path__, 'engines.'):\n"
        "    try:\n"
        "        importlib.import_module(m.name)\n"
        "    except ModuleNotFoundError as e:\n"
        "        if e.name in ('gymnasium',): continue\n"
        "        raise\n"
        "bad = [k for k in sys.modules if k.split('.')[0] in ('PySide6', 'pyqtgraph', 'desktop', 'shiboken6')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_reader_names_the_json_path():
    r = Reader({"players": ["Ann", 3]}, "$.setup")
    with pytest.raises(SessionFormatError) as e:
        r.str_list("players")
    assert e.value.path == "$.setup.players[1]"
    with pytest.raises(SessionFormatError) as e:
        r.int("values")
    assert e.value.path == "$.setup.values" and "missing" in e.value.message
    with pytest.raises(SessionFormatError) as e:
        Reader({"x": float("nan")}).float("x")
    assert "number" in e.value.message


def test_session_envelope_errors():
    with pytest.raises(SessionFormatError) as e:
        parse_session({"format": "deduction-desk.session", "version": 99, "game": "cluedo",
                       "setup": {}, "events": []})
    assert e.value.path == "$.version" and "newer" in e.value.message
    with pytest.raises(SessionFormatError) as e:
        parse_session({"format": "deduction-desk.session", "version": 1, "game": "chess",
                       "setup": {}, "events": []})
    assert e.value.path == "$.game"
    with pytest.raises(SessionFormatError) as e:
        parse_session([1, 2])
    assert e.value.path == "$"


def test_entropy_and_divergence_known_values():
    assert entropy_bits([0.5, 0.5]) == pytest.approx(1.0)
    assert entropy_bits([1, 0, 0]) == 0.0
    assert entropy_bits(np.ones(8)) == pytest.approx(3.0)
    assert kl_divergence_bits([1, 0], [0.5, 0.5]) == pytest.approx(1.0)
    assert kl_divergence_bits([0.5, 0.5], [1, 0]) == float("inf")
    # X uniform on {0,1}, Y = X: I = 1 bit; independent: 0
    assert mutual_information_bits([[0.5, 0], [0, 0.5]]) == pytest.approx(1.0)
    assert mutual_information_bits([[0.25, 0.25], [0.25, 0.25]]) == pytest.approx(0.0, abs=1e-12)


def test_cli_bad_file_exit_code(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "engines", "infer", str(bad)], capture_output=True, text=True)
    assert out.returncode == 2
    assert "bad.json" in out.stderr and "line 1" in out.stderr
    assert "Traceback" not in out.stderr


def test_wilson_interval_known_values():
    from engines.core import wilson_interval

    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-4) and hi == pytest.approx(0.59617, abs=1e-4)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(0, 0) == (0.0, 1.0)
    lo, hi = wilson_interval(3, 3)
    assert hi == 1.0 and 0.4 < lo < 0.5  # 3/3: (0.4385, 1)


def test_foreign_json_is_not_a_session(tmp_path):
    """Another program's JSON is named as such, not reported as a bad field."""
    for obj in ({"foo": 1}, {"name": "x", "version": "1.0.0"}, [1, 2], "text",
                {"format": "deduction-desk.inkognito-profiles", "version": 1}):
        with pytest.raises(SessionFormatError) as e:
            parse_session(obj)
        assert "not a Deduction Desk session file" in e.value.message, obj


def test_hostile_json_is_refused_with_a_message(tmp_path):
    from engines.core.schema import read_session_file

    cases = {
        "deep.json": '{"format": "deduction-desk.session", "x": ' + "[" * 100_000 + "]" * 100_000 + "}",
        "digits.json": '{"format": "deduction-desk.session", "x": ' + "9" * 5000 + "}",
        "latin1.json": '{"format": "deduction-desk.session", "game": "caf\xe9"}',
        "huge_name.json": json.dumps({"format": "deduction-desk.session", "version": 1,
                                      "game": "x" * 10_000_000}),
    }
    for name, text in cases.items():
        p = tmp_path / name
        p.write_bytes(text.encode("latin-1" if "latin" in name else "utf-8"))
        with pytest.raises(SessionFormatError) as e:
            read_session_file(str(p))
        assert len(str(e.value)) < 1000, name
    with pytest.raises(SessionFormatError) as e:
        read_session_file("/dev/zero")
    assert "regular file" in e.value.message


def test_unknown_setup_field_and_unsafe_names_are_reported():
    from engines.core.resources import resource_path

    base = json.loads(resource_path("examples", "cluedo.json").read_text(encoding="utf-8"))
    d = json.loads(json.dumps(base))
    d["setup"]["playrs"] = ["A"]
    with pytest.raises(SessionFormatError) as e:
        parse_session(d)
    assert e.value.path == "$.setup.playrs" and "unknown setup field" in e.value.message
    for bad in ("a\nb", "a\tb", "\x7f", "x" * 81):
        d = json.loads(json.dumps(base))
        d["setup"]["players"][1] = bad
        with pytest.raises(SessionFormatError) as e:
            parse_session(d)
        assert e.value.path == "$.setup.players[1]"
    # markup characters are allowed in names (the desktop escapes them wherever it shows them)
    old = base["setup"]["players"][1]
    d = json.loads(json.dumps(base).replace(json.dumps(old), json.dumps("<img src=x>&<b>")))
    assert parse_session(d).setup.players[1] == "<img src=x>&<b>"
