"""The adapters' tests (each skipped when its framework is not installed)."""
