"""The games' own views: one sub-package per game with its tab, forms and models
(``desktop/games/TABS.md`` says how to write one).
"""
