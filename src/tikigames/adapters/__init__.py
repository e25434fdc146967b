"""Adapters: the games in the frameworks people train and search with, each an optional extra."""
