"""Adapters: every game in the frameworks people train and search with (optional extras)."""
