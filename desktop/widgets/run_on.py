"""'Run on: this computer | Dask scheduler at …' for the Simulation tabs.

The choice becomes the ``scheduler`` of a simulator's ``SimConfig``
(:mod:`engines.core.executor`): None (this computer), ``local:N`` or ``tcp://HOST:PORT``.
Without the optional ``cluster`` extra the Dask choices are disabled and their tooltip says
how to install it.
"""
from __future__ import annotations

import os
from typing import Optional

from PySide6.QtCore import Signal, Slot
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QWidget

from engines.core.errors import SessionFormatError
from engines.core.executor import INSTALL_HINT, dask_available, parse_scheduler
from engines.core.i18n import _, ngettext

THIS_COMPUTER, LOCAL_CLUSTER, SCHEDULER = range(3)


class RunOnSelector(QWidget):
    """Where a simulation runs. :meth:`scheduler` gives the ``SimConfig.scheduler`` value.

    Signals:
        changed(): the choice or the address changed.
    """

    changed = Signal()

    def __init__(self, parent: Optional[QWidget] = None, default_address: str = "tcp://localhost:8786"):
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(_("Run on:")))
        self.where = QComboBox()
        n = os.cpu_count() or 1
        self.where.addItem(_("this computer"))
        self.where.addItem(ngettext("a Dask LocalCluster ({n} worker)", "a Dask LocalCluster ({n} workers)",
                                    n).format(n=n))
        self.where.addItem(_("the Dask scheduler at"))
        self.address = QLineEdit(default_address)
        self.address.setPlaceholderText(_("tcp://HOST:8786"))
        lay.addWidget(self.where)
        lay.addWidget(self.address, 1)
        if not dask_available():
            for i in (LOCAL_CLUSTER, SCHEDULER):
                item = self.where.model().item(i)
                item.setEnabled(False)
                item.setToolTip(_("needs Dask distributed: {hint}").format(hint=INSTALL_HINT))
            self.where.setToolTip(_("Dask is not installed: {hint}").format(hint=INSTALL_HINT))
        self.where.currentIndexChanged.connect(self._on_changed)
        self.address.textChanged.connect(self._on_changed)
        self._on_changed()

    @Slot()
    def _on_changed(self, *_args) -> None:
        self.address.setVisible(self.where.currentIndex() == SCHEDULER)
        self.changed.emit()

    def scheduler(self) -> Optional[str]:
        """The ``scheduler`` value: None, ``local:N`` or the address.

        Raises:
            SessionFormatError: the address is not a scheduler address (names ``Run on``).
        """
        i = self.where.currentIndex()
        if i == THIS_COMPUTER:
            return None
        if i == LOCAL_CLUSTER:
            return f"local:{os.cpu_count() or 1}"
        text = self.address.text().strip()
        parse_scheduler(text, option=_("Run on"))       # raises a message naming the field
        return text

    def problem(self) -> Optional[str]:
        """A message when the current choice cannot be used, else None."""
        try:
            self.scheduler()
        except SessionFormatError as exc:
            return str(exc)
        return None
