"""Translations (docs/translating.md): every user-visible string of the covered modules is marked
for gettext, every marked string has a German and a French translation keeping its
placeholders, the committed ``.mo`` files are the compiled ``.po`` files byte for byte, the
menus' keyboard mnemonics stay unique in each language, and numbers are written by QLocale.

:data:`COVERED` lists the engine modules that build text the app shows (and the desktop modules
translated first); every desktop module is scanned in any case, but for :data:`NOT_SCREEN_TEXT`.
"""
from __future__ import annotations

import ast
import datetime
import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "resources" / "locale"
LANGS = ("de", "fr")

#: The modules whose user-visible strings are all marked (partial: grows module by module).
COVERED = [
    "desktop/shell/menus.py",
    "desktop/shell/language.py",
    "desktop/shell/file_actions.py",
    "desktop/shell/errors.py",
    "desktop/shell/guide.py",
    "desktop/shell/unsaved_dialog.py",
    "desktop/shell/shortcuts.py",
    "desktop/shell/tab_pages.py",
    "desktop/shell/main_window.py",
    "desktop/storage/document.py",
    "desktop/storage/restore.py",
    "desktop/storage/write_failure_bar.py",
    "desktop/storage/window_autosave.py",
    "desktop/storage/recovery.py",
    "desktop/storage/paths.py",
    "desktop/storage/locks.py",
    "desktop/table/privacy.py",
    "desktop/table/zoom.py",
    "desktop/table/keep_awake.py",
    "desktop/table/reopen.py",
    "desktop/storage/journal.py",
    "desktop/tabs/banner_state.py",
    "desktop/tabs/base.py",
    "desktop/tabs/checks.py",
    "desktop/tabs/controller.py",
    "desktop/tabs/diagnosis.py",
    "desktop/tabs/entry_fix.py",
    "desktop/tabs/entry_forms.py",
    "desktop/tabs/generic_tab.py",
    "desktop/tabs/quick_entry_wiring.py",
    "desktop/tabs/snapshot.py",
    "desktop/tabs/why_view.py",
    "desktop/tabs/wording.py",
    "desktop/widgets/banner.py",
    "desktop/widgets/belief_plot.py",
    "desktop/widgets/dialogs.py",
    "desktop/widgets/history.py",
    "desktop/widgets/now_label.py",
    "desktop/widgets/quick_entry.py",
    "desktop/widgets/run_on.py",
    "desktop/widgets/simulation.py",
    "desktop/widgets/why.py",
    "desktop/widgets/worksheet.py",
    "desktop/games/cluedo/board_view.py",
    "desktop/games/cluedo/forms.py",
    "desktop/games/cluedo/opponents.py",
    "desktop/games/cluedo/opponents_view.py",
    "desktop/games/cluedo/panes.py",
    "desktop/games/cluedo/ranking.py",
    "desktop/games/cluedo/suggestion_notes.py",
    "desktop/games/cluedo/tab.py",
    "engines/cluedo/board.py",
    "engines/cluedo/cost.py",
    "engines/cluedo/diagnosis.py",
    "engines/cluedo/explain.py",
    "engines/cluedo/inference.py",
    "engines/cluedo/model.py",
    "engines/cluedo/parse.py",
    "engines/cluedo/suggestions.py",
    "engines/cluedo/turn.py",
    # the engines' shared text shown in the app (the command line, which sets no language, stays English)
    "engines/core/diagnosis.py",
    "engines/core/errors.py",
    "engines/core/explain.py",
    "engines/core/limits.py",
    "engines/core/names.py",
    "engines/core/schema.py",
    "engines/registry.py",
    "desktop/games/guesswho/cards.py",
    "desktop/games/guesswho/forms.py",
    "desktop/games/guesswho/model.py",
    "desktop/games/guesswho/panes.py",
    "desktop/games/guesswho/tab.py",
    "engines/guesswho/board.py",
    "engines/guesswho/diagnosis.py",
    "engines/guesswho/explain.py",
    "engines/guesswho/inference.py",
    "engines/guesswho/model.py",
    "engines/guesswho/parse.py",
    "engines/guesswho/words.py",
    "desktop/games/spyfall/equilibrium_view.py",
    "desktop/games/spyfall/forms.py",
    "desktop/games/spyfall/model.py",
    "desktop/games/spyfall/panes.py",
    "desktop/games/spyfall/round_timer.py",
    "desktop/games/spyfall/simulation.py",
    "desktop/games/spyfall/strikes.py",
    "desktop/games/spyfall/tab.py",
    "engines/spyfall/model.py",
    "engines/spyfall/parse.py",
    "engines/spyfall/recommend.py",
    "engines/spyfall/words.py",
    "desktop/games/inkognito/forms.py",
    "desktop/games/inkognito/panes.py",
    "desktop/games/inkognito/tab.py",
    "engines/inkognito/explain.py",
    "engines/inkognito/inference.py",
    "engines/inkognito/model.py",
    "engines/inkognito/parse.py",
    "engines/inkognito/words.py",
    "engines/egghead/cost.py",
    "engines/egghead/explain.py",
    "engines/egghead/model.py",
    "engines/egghead/parse.py",
    "engines/egghead/words.py",
    "desktop/games/egghead/forms.py",
    "desktop/games/egghead/panes.py",
    "desktop/games/egghead/simulation.py",
    "desktop/games/egghead/tab.py",
]

#: Qt calls whose arguments are shown to the user: a string literal among them must be wrapped
#: in ``_()`` (or ``ngettext``). Keyword arguments ``text``, ``title``, ``tip`` count too.
TEXT_CALLS = {
    "setText", "setToolTip", "setWindowTitle", "setPlaceholderText", "setStatusTip", "showMessage",
    "setAccessibleName", "setAccessibleDescription", "setWhatsThis", "setTitle", "setLabelText",
    "setInformativeText", "setDetailedText", "addTab", "insertTab", "setTabText", "setTabToolTip",
    "addButton", "addAction", "addMenu", "addItem", "addItems", "setHorizontalHeaderLabels",
    "setItemText", "setSuffix", "setPrefix", "setSpecialValueText", "setHtml", "setPlainText",
    "QLabel", "QPushButton", "QCheckBox", "QRadioButton", "QGroupBox", "QAction", "QMenu",
    "QToolButton", "QMessageBox", "about", "warning", "information", "question", "critical",
    "_action",
}
TEXT_KEYWORDS = {"text", "title", "tip", "informativeText", "statusTip", "toolTip"}
#: Arguments that are not text: key sequences ("Ctrl+1"), object names.
NOT_TEXT = re.compile(r"^(Ctrl|Shift|Alt|Meta|F\d+)\b")


def _literal_text(node) -> str:
    """The literal characters ``node`` puts on screen (a str constant, an f-string's literal
    parts, a concatenation of those), HTML tags and placeholders removed; '' for anything else
    (a variable, a call such as ``_(…)``)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _literal_text(node.left) + " " + _literal_text(node.right)
    elif isinstance(node, ast.IfExp):
        return _literal_text(node.body) + " " + _literal_text(node.orelse)
    else:
        return ""
    if NOT_TEXT.match(text):
        return ""
    return re.sub(r"<[^>]*>|\{[^}]*\}|%[sd]", "", text)


def _call_name(func) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def unmarked_strings(source: str, filename: str = "<source>") -> list[str]:
    """``file:line: text`` of every string literal shown through a Qt text call of ``source``
    without ``_()``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or _call_name(node.func) not in TEXT_CALLS:
            continue
        owner = node.func.value if isinstance(node.func, ast.Attribute) else None
        if isinstance(owner, ast.Name) and owner.id in ("log", "logger", "logging", "warnings"):
            continue   # the log file, not the screen
        args = list(node.args) + [k.value for k in node.keywords if k.arg in TEXT_KEYWORDS]
        for arg in args:
            text = _literal_text(arg)
            if re.search(r"[A-Za-z]{2,}", text):
                found.append(f"{filename}:{arg.lineno}: {text!r}")
    return found


def marked_msgids(source: str) -> dict[str, str | None]:
    """The msgids of ``_("…")``, ``N_("…")``, ``gettext("…")`` and ``ngettext("…", "…", n)`` in
    ``source``: {singular: plural, or None}."""
    ids: dict[str, str | None] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and _call_name(node.func) in ("_", "N_", "gettext", "ngettext"):
            strs = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if _call_name(node.func) == "ngettext" and len(strs) == 2:
                ids[strs[0]] = strs[1]
            elif strs and _call_name(node.func) != "ngettext":
                ids.setdefault(strs[0], None)
    return ids


def _catalog(lang):
    from babel.messages.pofile import read_po

    with open(LOCALE / lang / "LC_MESSAGES" / "deduction_desk.po", "rb") as fh:
        return read_po(fh, locale=lang)


def _placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"\{[^}]*\}|%\(?\w*\)?[sd]", text))


#: Desktop modules whose texts are for the command line or a developer, English by design (the
#: command line's output is a function of its input): the self-test's report, ``--screenshot``,
#: the menu entry's file written for the desktop.
NOT_SCREEN_TEXT = {"desktop/__main__.py", "desktop/shell/selftest.py", "desktop/shell/headless.py",
                   "desktop/shell/desktop_entry.py"}


def test_covered_modules_mark_every_user_visible_string():
    problems = []
    for rel in COVERED:
        problems += unmarked_strings((ROOT / rel).read_text(encoding="utf-8"), rel)
    assert not problems, "not marked for translation:\n" + "\n".join(problems)


def test_every_desktop_module_marks_every_user_visible_string():
    """The scan over the whole desktop package (a new module is scanned without being listed),
    but for :data:`NOT_SCREEN_TEXT`."""
    problems = []
    for path in sorted((ROOT / "desktop").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel not in NOT_SCREEN_TEXT:
            problems += unmarked_strings(path.read_text(encoding="utf-8"), rel)
    assert not problems, "not marked for translation:\n" + "\n".join(problems)


def test_the_scan_finds_an_unmarked_string():
    """The scan fails on a string unwrapped from ``_()`` in the covered code (menus.py's
    File menu), and on each kind of Qt text call."""
    menus = (ROOT / "desktop/shell/menus.py").read_text(encoding="utf-8")
    assert '_("&File")' in menus
    assert unmarked_strings(menus.replace('_("&File")', '"&File"'))
    for line in ('w.setToolTip("Open a game")', 'QLabel("Players")', 'QMessageBox.warning(self, t, f"No {x} here")',
                 'box.setWindowTitle("Saved" if ok else "Failed")', 'self._action(m, "Save", s, tip="Keep it")'):
        assert unmarked_strings(line), line
    for line in ('w.setToolTip(_("Open a game"))', 'QLabel(name)', 'a.setShortcut("Ctrl+S")',
                 'self._action(m, _("Save"), s, "Ctrl+1")', 'QLabel("—")'):
        assert not unmarked_strings(line), line


@pytest.mark.parametrize("lang", LANGS)
def test_every_marked_string_is_translated_with_its_placeholders(lang):
    catalog = _catalog(lang)
    wanted: dict = {}
    for rel in COVERED:
        wanted.update(marked_msgids((ROOT / rel).read_text(encoding="utf-8")))
    assert wanted, "nothing marked in the covered modules"
    problems = []
    for msgid in sorted(wanted):
        message = catalog.get(msgid)
        if message is None:
            problems.append(f"not in the catalog (run pybabel extract/update): {msgid!r}")
            continue
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        if wanted[msgid] is not None and ids[1:] != (wanted[msgid],):
            problems.append(f"plural form differs from the code (run pybabel update): {msgid!r}")
            continue
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated or fuzzy: {msgid!r}")
            continue
        if len(ids) == 1:
            if _placeholders(strings[0]) != _placeholders(ids[0]):
                problems.append(f"placeholders differ: {msgid!r} → {strings[0]!r}")
        else:   # plural forms: each within the plural msgid's, the last (the plural) all of them
            plural = set(_placeholders(ids[1]))
            if any(not set(_placeholders(s)) <= plural for s in strings) \
                    or set(_placeholders(strings[-1])) != plural:
                problems.append(f"placeholders differ: {ids!r} → {strings!r}")
    assert not problems, f"{lang}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_committed_mo_is_the_compiled_po(lang):
    """``pybabel compile`` of the .po gives the committed .mo byte for byte (they cannot drift)."""
    from babel.messages.mofile import write_mo

    out = io.BytesIO()
    write_mo(out, _catalog(lang), use_fuzzy=False)
    committed = (LOCALE / lang / "LC_MESSAGES" / "deduction_desk.mo").read_bytes()
    assert out.getvalue() == committed, f"recompile: pybabel compile -d resources/locale -D deduction_desk ({lang})"


def test_language_is_read_from_the_environment_and_falls_back_to_english():
    from engines.core import i18n

    assert i18n.system_language({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.system_language({"LANGUAGE": "es:fr", "LANG": "de_DE.UTF-8"}) == "fr"
    assert i18n.system_language({"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}) == "en"   # LC_ALL wins
    assert i18n.system_language({"LANG": "es_ES.UTF-8"}) == "en"
    assert i18n.system_language({}) == "en"
    try:
        assert i18n.set_language("fr_FR.UTF-8") == "fr" and i18n.language() == "fr"
        assert i18n._("&File") == "&Fichier"
        assert i18n.set_language("de") == "de"
        assert i18n._("&File") == "&Datei"
        assert i18n._("a string nobody translated") == "a string nobody translated"
        assert i18n.set_language("xx") == "en" and i18n._("&File") == "&File"
    finally:
        i18n.set_language("en")


def test_numbers_percentages_and_times_follow_the_language():
    from PySide6.QtCore import QLocale

    from desktop.shell.locale_format import clock_time, number, percent

    de, fr = QLocale(QLocale.Language.German), QLocale(QLocale.Language.French)
    en = QLocale(QLocale.Language.English, QLocale.Country.UnitedKingdom)
    at = datetime.datetime(2026, 11, 28, 21, 14)
    assert percent(0.235, 1, de) == "23,5\u00a0%" and clock_time(at, de) == "21:14"
    assert percent(0.235, 1, fr) == "23,5\u202f%" and clock_time(at, fr) == "21:14"
    assert percent(0.235, 1, en) == "23.5\u00a0%" and clock_time(at, en) == "21:14"
    assert number(1234.5, 1, de) == "1.234,5" and number(float("nan"), 1, de) == "–"
    from engines.core import i18n

    try:     # without a locale given: the language in effect
        assert i18n.set_language("de") == "de" and percent(0.235, 1) == "23,5\u00a0%"
    finally:
        i18n.set_language("en")
    assert percent(0.235, 1) == "23.5\u00a0%"


def _mnemonics(menu) -> list[tuple[str, str]]:
    """(letter, text) of every action of ``menu`` with a mnemonic ("&Datei" → "d")."""
    out = []
    for action in menu.actions():
        text = action.text().replace("&&", "")
        m = re.search(r"&(\w)", text)
        if m and action.isVisible() and not action.isSeparator():
            out.append((m.group(1).lower(), action.text()))
    return out


def _all_menus(bar):
    todo, seen = [bar], []
    while todo:
        menu = todo.pop()
        seen.append(menu)
        todo += [a.menu() for a in menu.actions() if a.menu() is not None]
    return seen


@pytest.mark.parametrize("lang", ("en",) + LANGS)
def test_menu_mnemonics_are_unique_in_each_language(qtbot, lang):
    """Every menu's keyboard mnemonics are unique (Alt+D opens one thing) in each language: the
    main window built in ``lang``."""
    from desktop.shell.main_window import MainWindow
    from engines.core import i18n

    i18n.set_language(lang)
    try:
        win = MainWindow(autosave=False, interactive=False)
        qtbot.addWidget(win)
        win._rebuild_examples()
        for menu in _all_menus(win.menuBar()):
            letters = _mnemonics(menu)
            dup = {c for c, _t in letters if [c2 for c2, _ in letters].count(c) > 1}
            assert not dup, f"{lang}: {[t for c, t in letters if c in dup]}"
        if lang == "de":
            assert [a.text() for a in win.menuBar().actions()][:2] == ["&Datei", "&Bearbeiten"]
        win.shutdown()
    finally:
        i18n.set_language("en")


def test_qt_own_strings_and_the_default_locale_follow_the_language(qapp):
    """apply_language installs Qt's qtbase catalog (standard buttons) and the default QLocale;
    English removes them again."""
    from PySide6.QtCore import QCoreApplication, QLocale

    from desktop.shell.language import apply_language

    try:
        assert apply_language(qapp, "de") == "de"
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Abbrechen"
        assert QLocale().toString(1234.5, "f", 1) == "1.234,5"
        assert apply_language(qapp, "fr") == "fr"
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Annuler"
    finally:
        apply_language(qapp, "en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
    assert QLocale().toString(1234.5, "f", 1) == "1,234.5"


def test_the_stored_choice_wins_over_the_system_and_is_kept_for_the_next_start(qtbot, monkeypatch):
    """View → Language: the setting decides at start ("" follows the system); choosing stores
    it (the restart question is not asked without a user)."""
    from desktop.shell import language
    from desktop.shell.main_window import MainWindow
    from desktop.shell.settings import LANGUAGE

    monkeypatch.setattr(language, "system_language", lambda: "de")
    assert language.chosen_language("fr") == "fr" and language.chosen_language("") == "de"
    assert language.chosen_language("xx") == "de"
    LANGUAGE.write("")
    win = MainWindow(autosave=False, interactive=False)
    qtbot.addWidget(win)
    try:
        assert win.language_actions[""].isChecked()
        win.choose_language("fr")
        assert LANGUAGE.read() == "fr" and win.language_actions["fr"].isChecked()
        assert not getattr(win, "restart_requested", False)
        assert language.chosen_language() == "fr"
    finally:
        LANGUAGE.write("")
        win.shutdown()


def test_engine_messages_follow_the_language_and_the_command_line_stays_english():
    """The engines' shared texts (a refused name, a bad field, Why?'s open cell, a list's "and
    4 more") are German with German chosen and exactly the English of the code otherwise; no
    module of engines/ but i18n itself sets a language, so the command line's output (which
    the CLI tests compare) is English whatever the system's locale."""
    from engines.core import i18n
    from engines.core.errors import ContradictionError, SessionFormatError
    from engines.core.explain import explain_with, listed
    from engines.core.names import match_name
    from engines.core.schema import Reader

    def messages():
        out = []
        for call in (lambda: match_name("zz", ["Rope", "Revolver"], "card"),
                     lambda: match_name("r", ["Rope", "Revolver"], "card"),
                     lambda: Reader({"x": "a"}, "$").int("x")):
            with pytest.raises(SessionFormatError) as info:
                call()
            out.append(str(info.value))
        out.append(explain_with({}, 0, "uncertain", lambda s: False, lambda s: []).steps[0])
        out.append(listed([str(i) for i in range(12)])[0])
        out.append(str(ContradictionError(2, "x")))
        return out

    english = ["$.text: unknown card 'zz'; expected one of Rope, Revolver",
               "$.text: ambiguous card 'r': Rope, Revolver",
               "$.x: expected a whole number, got the text 'a'",
               "The entries so far leave this open.",
               "0, 1, 2, 3, 4, 5, 6, 7 and 4 more",
               "event 3 contradicts what came before: x"]
    assert messages() == english
    try:
        i18n.set_language("de")
        assert messages() == ["$.text: Karte 'zz' ist unbekannt; erwartet wird eines von: Rope, Revolver",
                              "$.text: Karte 'r' ist mehrdeutig: Rope, Revolver",
                              "$.x: erwartet wurde eine ganze Zahl, erhalten: der Text 'a'",
                              "Die bisherigen Einträge lassen das offen.",
                              "0, 1, 2, 3, 4, 5, 6, 7 und 4 weitere",
                              "Ereignis 3 widerspricht dem Vorherigen: x"]
    finally:
        i18n.set_language("en")
    assert messages() == english
    setters = [str(p.relative_to(ROOT)) for p in (ROOT / "engines").rglob("*.py")
               if "set_language(" in p.read_text(encoding="utf-8") and p.name != "i18n.py"]
    assert not setters, setters


def test_a_word_marked_alone_and_with_its_plural_is_translated_both_ways():
    """"identity" is a kind of name (engines.core.names) and a count (Inkognito): one catalog
    entry with plural forms serves ``_`` and ``ngettext``."""
    from engines.core import i18n

    before = i18n.language()
    try:
        i18n.set_language("de")
        assert (i18n._("identity"), i18n.ngettext("identity", "identities", 2)) == ("Identität", "Identitäten")
        i18n.set_language("fr")
        assert i18n._("identity") == "identité"
    finally:
        i18n.set_language(before)


def test_german_addresses_the_player_one_way():
    """The German catalog says "Sie" throughout (docs/translating.md, glossary): a "du" form in
    one game and "Sie" in another read as two apps."""
    du = re.compile(r"\b(du|dir|dich|dein|deine|deinen|deinem|deiner|deines|bist|hast)\b")
    found = []
    for m in _catalog("de"):
        texts = [m.string] if isinstance(m.string, str) else list(m.string)
        if m.id and any(du.search(t or "") for t in texts):
            found.append(m.id if isinstance(m.id, str) else m.id[0])
    assert not found, found
