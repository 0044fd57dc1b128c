"""Deduction Desk's Qt front end (PySide6 + pyqtgraph). Imports ``engines``; never the reverse."""
__version__ = "0.1.0"
#: The application's id (reverse DNS): the desktop file's name, the AppStream component id, the
#: icon's name and the windows' desktop file name (``QGuiApplication.setDesktopFileName``);
#: :mod:`desktop.shell.desktop_entry` installs the files named after it.
APP_ID = "io.github.deductiondesk.DeductionDesk"
