"""The Guess Who? tab."""
