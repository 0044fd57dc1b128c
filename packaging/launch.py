"""PyInstaller entry script: starts Deduction Desk (``desktop.app.main``)."""
import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from desktop.app import main

    sys.exit(main())
