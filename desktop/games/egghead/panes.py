"""The Egghead tab's answer to "Can I solve now?", a presenter of the published snapshot: it
draws each moment from the :class:`desktop.tabs.snapshot.Snapshot` alone (its posterior, moment,
timeline and wording), never from the document (docs/ARCHITECTURE.md, "One moment on screen").
"""
from __future__ import annotations

from typing import Optional

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

from desktop.games.egghead.forms import stack_text
from desktop.shell.appearance import tone
from desktop.tabs.snapshot import Snapshot
from desktop.widgets.worksheet import format_probability


class SolveLine(QLabel):
    """"Can I solve now?" in large type: yes with the stack to call, or not yet with the stacks
    still possible and the likeliest; never "yes" while the log is impossible. Wraps when
    narrow (x-large: 1.5 × the zoomed font)."""

    def __init__(self, parent: Optional[QWidget] = None):
        super().__init__(parent)
        self.setTextFormat(Qt.RichText)
        self.setWordWrap(True)

    def render(self, snap: Snapshot) -> None:
        """Draw the answer at the moment ``snap`` (its posterior must be set)."""
        post = snap.posterior
        then = "" if snap.live else f"<i>as after entry {snap.k}</i> · "
        impossible = snap.timeline is not None and snap.timeline.error is not None
        if impossible and snap.live:
            self.setText(f"<span style='font-size:x-large; color:{tone('#b71c1c')}'><b>Can I "
                         "solve now? The log is impossible</b></span> — fix the "
                         "highlighted entry first")
        elif post.can_solve:
            self.setText(f"{then}<span style='font-size:x-large; color:{tone('#1b5e20')}'><b>Can I "
                         f"solve now? Yes — call {stack_text(post.solution)}</b></span>")
        else:
            j = int(np.argmax(post.my_probabilities))
            self.setText(
                f"{then}<span style='font-size:x-large; color:{tone('#6d4c00')}'><b>Can I solve now? "
                f"Not yet</b></span> — {len(post.my_valids)} "
                f"{snap.wording.pick('stacks possible', 'valid stacks')}; most likely "
                f"{stack_text(post.my_valids[j])} ({format_probability(post.my_probabilities[j])})")
