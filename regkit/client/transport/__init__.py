"""How requests reach the interface: the cached session and the attempt loop."""

from .session import Attempt, MeteringAdapter, build_session

__all__ = ["Attempt", "MeteringAdapter", "build_session"]
