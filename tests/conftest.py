"""Test configuration: Qt runs headless (offscreen) and the app's settings/data go to a
temporary test location (QStandardPaths test mode), so tests never touch a user's files."""
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
