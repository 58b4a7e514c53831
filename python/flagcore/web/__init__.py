"""flagcore.web: a game server and browser game on the engines (``pip install "flagcore[web]"``).

``create_app()`` returns the ASGI app; ``flagcore serve`` runs it (uvicorn, or granian), with its
games in a store (flagcore.store). See docs/server.md for the API, the token scheme and how to
scale it out.
"""

from __future__ import annotations

from ..errors import TokenError
from .app import create_app
from .tokens import SECRET_ENV

__all__ = ["create_app", "SECRET_ENV", "TokenError"]
