"""The Spyfall tab."""
