"""Request guards in front of the API: trusted hosts, cross-site requests, body size.

Binding to loopback is no defence against DNS rebinding (a page on evil.example
whose name resolves to 127.0.0.1), so the ``Host`` header must name a trusted
host (``KG_ALLOWED_HOSTS``; an IPv6 address in brackets, ``[::1]:8000``, names ``::1``). A browser
request that another site started (``Sec-Fetch-Site: cross-site``) is refused,
whatever its method, so a cross-site ``GET /graphql?query=`` runs nothing.
Bodies above ``KG_MAX_BODY_BYTES`` get 413 before they are parsed.
"""

from __future__ import annotations

from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["RequestGuard", "PagePolicy", "page_policy", "public_message", "host_name", "trusted_host"]


class _TooLarge(Exception):
    pass


def host_name(header: str) -> str:
    """The host a ``Host`` header names, without its port; an IPv6 address without its brackets.

    >>> host_name("127.0.0.1:8000"), host_name("[::1]:8000"), host_name("[::1]"), host_name("LocalHost")
    ('127.0.0.1', '::1', '::1', 'localhost')
    """
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.split(":", 1)[0]


def trusted_host(header: str, allowed: list[str]) -> bool:
    """Whether a ``Host`` header names an allowed host (``*`` any; ``*.example.org`` its subdomains)."""
    host = host_name(header)
    for pattern in allowed:
        pattern = pattern.lower().strip("[]")
        if pattern == "*" or host == pattern or (pattern.startswith("*.") and host.endswith(pattern[1:])):
            return True
    return False


class RequestGuard:
    """Pure ASGI middleware (no per-request task or copy of the body)."""

    def __init__(self, app: ASGIApp, *, max_body_bytes: int, allowed_hosts: list[str] | None = None) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.allowed_hosts = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        if self.allowed_hosts is not None and not trusted_host(headers.get("host", ""), self.allowed_hosts):
            await PlainTextResponse("Invalid host header", status_code=400)(scope, receive, send)
            return
        if headers.get("sec-fetch-site") == "cross-site":
            await PlainTextResponse("cross-site requests are refused", status_code=403)(scope, receive, send)
            return
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
            await self._too_large(scope, receive, send)
            return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body_bytes:
                    raise _TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except _TooLarge:
            if started:
                raise
            await self._too_large(scope, receive, send)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = PlainTextResponse(f"request body larger than {self.max_body_bytes} bytes (KG_MAX_BODY_BYTES)", status_code=413)
        await response(scope, receive, send)


def page_policy(inline_scripts: list[str]) -> str:
    """The Content-Security-Policy of kg's pages: everything from kg itself, scripts only from its files (and the
    inline scripts named, by hash), the explorer's layout worker from a blob, and no framing by other sites."""
    import base64
    import hashlib

    hashes = " ".join(f"'sha256-{base64.b64encode(hashlib.sha256(s.encode()).digest()).decode()}'" for s in inline_scripts)
    return (
        "default-src 'self'; "
        f"script-src 'self'{' ' + hashes if hashes else ''}; worker-src 'self' blob:; "
        "style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


class PagePolicy:
    """Pure ASGI middleware: every response says ``X-Content-Type-Options: nosniff``; HTML responses (the explorer,
    GraphiQL) also carry ``policy`` and ``X-Frame-Options: DENY``."""

    def __init__(self, app: ASGIApp, *, policy: str) -> None:
        self.app = app
        self.headers = [(b"content-security-policy", policy.encode()), (b"x-frame-options", b"DENY")]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_policy(message: Message) -> None:
            if message["type"] == "http.response.start":
                kind = dict(message.get("headers", ())).get(b"content-type", b"")
                extra = [(b"x-content-type-options", b"nosniff"), *(self.headers if kind.startswith(b"text/html") else ())]
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_policy)


def public_message(exc: Exception) -> str:
    """What a client may read about a store error: never a path on the server."""
    from kg.errors import MigrationError, StoreError, StoreUnavailable

    if isinstance(exc, StoreError) and not isinstance(exc, (StoreUnavailable, MigrationError)):
        return "the store cannot be read; the server log says why"
    return str(exc)
