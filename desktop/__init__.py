"""Deduction Desk's Qt front end (PySide6 + pyqtgraph). Imports ``engines``; never the reverse."""
__version__ = "0.1.0"
