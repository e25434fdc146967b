"""Game options: declared once per game, validated by :func:`tikigames.load`.

A game declares a tuple of :class:`Option`; ``load`` checks every given value (type — a bool is
never an int —, range, choices), fills in defaults (a default may depend on options already
resolved, e.g. Tiki Topple's ``rounds`` on ``players``) and raises :class:`OptionError` naming the
option at the first problem.

This module is in the core layer: it imports only from :mod:`tikigames.core`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tikigames.core.errors import OptionError, shown

__all__ = ["Option", "resolve_options"]

OptionValue = int | bool | str | None
DefaultFn = Callable[[Mapping[str, OptionValue]], OptionValue]


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, type, default, bounds and one line of documentation.

    >>> from tikigames.core.options import Option
    >>> Option("rounds", int, 4, "rounds to play", minimum=1).validate(3)
    3
    """

    #: The keyword accepted by ``load``.
    name: str
    #: ``int``, ``bool`` or ``str``.
    kind: type
    #: The value when the option is not given, or a function of the options declared before it.
    default: OptionValue | DefaultFn
    #: One line for the docs and ``tikigames list``.
    doc: str
    #: The inclusive lower bound of an ``int`` option.
    minimum: int | None = None
    #: The inclusive upper bound of an ``int`` option.
    maximum: int | None = None
    #: The allowed values, when they are a short list.
    choices: tuple[OptionValue, ...] | None = None
    #: Whether ``None`` is a value (e.g. "no limit").
    allow_none: bool = False

    def validate(self, value: object) -> OptionValue:
        """``value`` if it is acceptable, else :class:`OptionError` naming the option."""
        if value is None:
            if self.allow_none:
                return None
            raise OptionError(f"option {self.name!r} cannot be None")
        if type(value) is not self.kind:  # exact: a bool is not an int
            raise OptionError(
                f"option {self.name!r} must be {self.kind.__name__}"
                f"{' or None' if self.allow_none else ''},"
                f" not {type(value).__name__} {shown(value)}"
            )
        assert isinstance(value, (int, str))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} must be one of {allowed}, not {shown(value)}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise OptionError(
                    f"option {self.name!r} must be >= {self.minimum}, not {shown(value)}"
                )
            if self.maximum is not None and value > self.maximum:
                raise OptionError(
                    f"option {self.name!r} must be <= {self.maximum}, not {shown(value)}"
                )
        return value

    def parse(self, text: str) -> OptionValue:
        """The value written ``text`` (as on the command line, ``-o KEY=VALUE``), validated.

        ``none``/``null`` is ``None`` where allowed; a ``bool`` option takes ``true``/``false``
        (or ``yes``/``no``, ``on``/``off``, ``1``/``0``); an ``int`` option a decimal integer.

        >>> from tikigames.core.options import Option
        >>> Option("rounds", int, 4, "rounds", minimum=1).parse(" 3 ")
        3
        >>> Option("jokers", bool, True, "jokers").parse("off")
        False

        Raises:
            OptionError: the text is no value of this option.
        """
        lowered = text.strip().lower()
        if lowered in ("none", "null") and self.allow_none:
            return None
        if self.kind is bool:
            if lowered in ("true", "yes", "1", "on"):
                return True
            if lowered in ("false", "no", "0", "off"):
                return False
            raise OptionError(f"option {self.name!r} takes true or false, not {text[:40]!r}")
        if self.kind is int:
            if len(lowered) > 20:
                raise OptionError(f"option {self.name!r} takes an integer, not {text[:40]!r}...")
            try:
                number = int(lowered)
            except ValueError:
                raise OptionError(
                    f"option {self.name!r} takes an integer, not {text[:40]!r}"
                ) from None
            return self.validate(number)
        return self.validate(text.strip())

    def describe_default(self) -> str:
        """The default as the docs show it."""
        if callable(self.default):
            return "depends on other options"
        return repr(self.default)


def resolve_options(
    game_name: str, specs: Sequence[Option], given: Mapping[str, object]
) -> dict[str, OptionValue]:
    """Every option's value, in declaration order: the given ones validated, the rest defaulted."""
    known = {spec.name for spec in specs}
    for name in given:
        if name not in known:
            allowed = ", ".join(sorted(known)) or "none"
            raise OptionError(f"{game_name} has no option {shown(name)} (options: {allowed})")
    resolved: dict[str, OptionValue] = {}
    for spec in specs:
        if spec.name in given:
            resolved[spec.name] = spec.validate(given[spec.name])
        elif callable(spec.default):
            resolved[spec.name] = spec.default(resolved)
        else:
            resolved[spec.name] = spec.default
    return resolved
