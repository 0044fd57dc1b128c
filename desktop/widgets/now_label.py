"""A label about the log as it is now, which says so while a past History entry is shown.

Hints of the forms (the answers a question can still get, whether another round of reactions
can teach anything) are about the whole log, since the next entry is appended to it. While the
tab shows a past moment, :meth:`NowLabel.set_past` makes the label say that it speaks of now.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel

from engines.core.i18n import N_, _

#: What a :class:`NowLabel` puts before its text while a past moment is shown.
NOW_PREFIX = N_("Now (whole log): ")


class NowLabel(QLabel):
    """A QLabel whose text is prefixed with :data:`NOW_PREFIX` while :meth:`set_past` is on."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(parent)
        self._raw = ""
        self._past = False
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 (Qt name)
        self._raw = text or ""
        super().setText(_(NOW_PREFIX) + self._raw if self._past and self._raw else self._raw)

    def clear(self) -> None:
        self.setText("")

    def set_past(self, past: bool) -> None:
        """Whether the tab shows a past moment (then the text says it is about now)."""
        if past != self._past:
            self._past = past
            self.setText(self._raw)
