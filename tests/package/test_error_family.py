"""One error family: every exception class flagcore defines is a FlagcoreError and a builtin."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import flagcore
from flagcore.errors import FlagcoreError


def _modules() -> list[str]:
    names = ["flagcore"]
    for info in pkgutil.walk_packages(flagcore.__path__, "flagcore."):
        if info.name != "flagcore.__main__":  # importing it runs the command
            names.append(info.name)
    return names


def test_every_exception_class_is_a_flagcore_error():
    seen = []
    for name in _modules():
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, BaseException) and cls.__module__.startswith("flagcore"):
                seen.append(cls)
                assert issubclass(cls, FlagcoreError), f"{cls.__module__}.{cls.__qualname__} is not a FlagcoreError"
                if cls is FlagcoreError:
                    continue
                builtins = [b for b in cls.__mro__ if b.__module__ == "builtins" and b not in (object, BaseException)]
                what = f"{cls.__qualname__}: which builtin does it behave like?"
                assert builtins and builtins[0] is not Exception, what
    # the family is found (the web and store classes included, since the test extra installs them)
    names = {cls.__name__ for cls in seen}
    assert {"NoBoardError", "LibraryError", "ParSearchLimit", "TokenError", "ApiError", "ImplError"} <= names


def test_every_exception_class_lives_in_errors():
    homes = {
        cls.__module__
        for name in _modules()
        for _, cls in inspect.getmembers(importlib.import_module(name), inspect.isclass)
        if issubclass(cls, BaseException) and cls.__module__.startswith("flagcore")
    }
    assert homes == {"flagcore.errors"}, homes
