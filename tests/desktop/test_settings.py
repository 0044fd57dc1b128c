"""desktop/shell/settings.py: every key declared once; a stored value of the wrong type reads as the
default (a hand-edited or older settings file must not stop the app)."""
from PySide6.QtCore import QSettings

from desktop.shell import settings


def test_options_read_back_and_fall_back_to_their_default(tmp_path):
    store = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    assert settings.LAST_TAB.read(store) == "" and settings.RECENT_FILES.read(store) == []
    settings.LAST_TAB.write("spyfall", store)
    settings.RECENT_FILES.write(["/a.json", "/b.json"], store)
    assert settings.LAST_TAB.read(store) == "spyfall"
    assert settings.RECENT_FILES.read(store) == ["/a.json", "/b.json"]
    settings.RECENT_FILES.write(["/only.json"], store)       # read back as a plain string
    assert settings.RECENT_FILES.read(store) == ["/only.json"]
    store.setValue(settings.LAST_TAB.key, 7)                  # wrong type: the default
    store.setValue(settings.RECENT_FILES.key, 7)
    assert settings.LAST_TAB.read(store) == "" and settings.RECENT_FILES.read(store) == []
    assert settings.SPLITTERS.of("cluedo").key == "splitters/cluedo"


def test_keys_are_declared_once():
    keys = [o.key if isinstance(o, settings.Option) else o.pattern for o in settings.ALL]
    assert len(keys) == len(set(keys))
