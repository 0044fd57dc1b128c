"""Data files of Deduction Desk (decks, boards, question decks, location lists, icons, examples).

This is a package only so that ``pip install .`` ships the data next to the code; use
:func:`engines.core.resources.resource_path` to locate a file.
"""
