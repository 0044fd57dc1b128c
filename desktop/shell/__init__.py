"""The application shell: the QApplication, the main window, its menus, file actions, settings,
appearance, guide, errors and the command-line modes (self-test, screenshot).
"""
