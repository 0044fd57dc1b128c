"""The Guess Who? tab (issue 5)."""
