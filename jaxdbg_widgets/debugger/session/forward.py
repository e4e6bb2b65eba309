"""A read-only attribute answered by one of its owner's parts, for sessions built of parts."""

from __future__ import annotations

from typing import Any, Generic, TypeVar, overload

T = TypeVar("T")


class Forward(Generic[T]):
    """Reads the attribute of the same name on the owner's ``part`` (``gathering.version``)."""

    def __init__(self, part: str, doc: str) -> None:
        self.part = part
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type) -> Forward[T]: ...
    @overload
    def __get__(self, instance: object, owner: type) -> T: ...
    def __get__(self, instance: Any, owner: type) -> Any:
        if instance is None:
            return self
        return getattr(getattr(instance, self.part), self.name)
