"""Rules of the server secret: at least 128 bits of entropy, as far as a string can show it.

A string cannot prove it was drawn at random, so the rule estimates: the alphabet a secret is
written in (hex: 4 bits a character, base64 / base64url: 6, any other text: log2(95) = 6.6) times
its length must reach 128 bits (a passphrase of words: 12.9 bits a word, as if each were drawn
from a 7776-word list, so ten words), and its characters must look drawn at random: spread over the
alphabet (their empirical entropy), not a repetition of a shorter string, and not mostly steps of
-1, 0 or +1 between neighbours ("aaaa...", "0123456789abcdef..."). A secret made as the message
says always passes: ``python -c "import secrets; print(secrets.token_urlsafe(32))"`` (256 bits).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any

from ..errors import ArgumentError, ArgumentTypeError

MIN_SECRET_BITS = 128
MAKE_ONE = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'
_HEX = re.compile(r"[0-9a-fA-F]+")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]+=*")


def alphabet_bits(secret: str) -> float:
    """Bits per character of the alphabet ``secret`` is written in."""
    if _HEX.fullmatch(secret):
        return 4.0
    if _BASE64.fullmatch(secret):
        return 6.0
    return math.log2(95)  # printable ASCII; other text carries no more per byte that a person types


def secret_bits(secret: str) -> float:
    """The entropy in bits this rule credits ``secret`` with (0 when it looks made, not drawn)."""
    text = secret.rstrip("=")
    n = len(text)
    if n < 2:
        return 0.0
    if len(text.split()) > 1:  # a passphrase: its words, at best drawn from a 7776-word list (diceware)
        return len(text.split()) * math.log2(7776)
    per_char = alphabet_bits(text)
    # the characters' own spread: a random string of n characters from an alphabet of 2**per_char
    # spreads over about min(alphabet, n) of them; 1.5 bits of slack keeps genuine ones well clear
    counts = Counter(text)
    spread = -sum(c / n * math.log2(c / n) for c in counts.values())
    if spread < math.log2(min(2**per_char, n)) - 1.5:
        return 0.0
    if any(n % period == 0 and text == text[:period] * (n // period) for period in range(1, n // 2 + 1)):
        return 0.0
    steps = sum(1 for a, b in zip(text, text[1:]) if abs(ord(a) - ord(b)) <= 1)
    if steps > (n - 1) / 2:
        return 0.0
    return n * per_char


def as_secret(value: Any, name: str) -> bytes:
    """A server secret (str, or bytes of UTF-8) with at least MIN_SECRET_BITS bits of entropy, as bytes."""
    if isinstance(value, bytes):
        try:
            value = value.decode("utf-8")
        except UnicodeDecodeError:
            raise ArgumentError(f"{name} must be text (UTF-8): make one with {MAKE_ONE}") from None
    if not isinstance(value, str):
        raise ArgumentTypeError(f"{name} must be a str, not {type(value).__name__}")
    bits = secret_bits(value.strip())
    if value != value.strip() or bits < MIN_SECRET_BITS:
        why = "it looks made by hand (spaces, repeats or runs)" if bits == 0 else f"this one has about {bits:.0f}"
        raise ArgumentError(
            f"{name} is too weak: a secret needs at least {MIN_SECRET_BITS} bits of entropy and {why}; "
            f"make one with {MAKE_ONE}"
        )
    return value.encode("utf-8")


def as_key_bytes(secret: Any) -> bytes:
    """A Signer's key: bytes, at least 16 of them."""
    if not isinstance(secret, bytes) or len(secret) < 16:
        raise ArgumentError("secret must be at least 16 bytes")
    return secret


def as_old_secrets(text: str, name: str) -> tuple[bytes, ...]:
    """The old secrets of a rotation (whitespace-separated), each at least 16 characters."""
    old = tuple(s.encode("utf-8") for s in text.split())
    if any(len(s) < 16 for s in old):
        raise ArgumentError(f"{name}: each old secret must be at least 16 characters")
    return old
