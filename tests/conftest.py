"""Hypothesis profiles: ``ci`` (the default; bounded so CI stays fast), ``wheel`` (what CI runs
against each installed wheel: the same properties on fewer walks, since the editable run has
checked them with ``ci`` already and a wheel's run checks the build) and ``thorough``."""

import os

from hypothesis import HealthCheck, settings

#: Every profile: no deadline (a shared machine is slow at times) and no slowness checks.
_COMMON = settings(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.register_profile("ci", _COMMON, max_examples=40, derandomize=True)
settings.register_profile("wheel", _COMMON, max_examples=12, derandomize=True)
settings.register_profile("thorough", _COMMON, max_examples=200)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
