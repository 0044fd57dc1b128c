"""The Spyfall tab (issue 6)."""
