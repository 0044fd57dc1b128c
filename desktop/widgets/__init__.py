"""Reusable views shared by every tab: worksheet grid, history list, belief plot, banner."""
