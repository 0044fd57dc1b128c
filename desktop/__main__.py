import sys

from desktop.shell.main_window import main

sys.exit(main())
