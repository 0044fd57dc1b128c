"""Inkognito tab."""
