"""Engine core: import boundary, schema reader errors, information theory helpers."""
import importlib
import json
import pkgutil
import subprocess
import sys

import numpy as np
import pytest

import engines
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
