"""PyInstaller entry script: starts Deduction Desk (``desktop.shell.main_window.main``)."""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from desktop.shell.main_window import main

    sys.exit(main())
