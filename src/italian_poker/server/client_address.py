"""The address a request comes from, as the per-address limits count it.

Without trusted proxies it is the peer's address (the ASGI scope's ``client``). Behind a
reverse proxy every request comes from the proxy: when the peer is one of the
``trusted_proxies`` (addresses or networks, e.g. ``127.0.0.1`` or ``10.0.0.0/8``), the client
is read from ``X-Forwarded-For``, right to left, as the first address no trusted proxy holds
(what a client writes into the header itself is to the left of what the proxies appended,
and is never reached while the proxies' own entries are valid). An IPv6 address counts as its
``/64`` network, which one home or one host usually holds whole.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

from starlette.types import Scope

UNKNOWN = "unknown"
"""The address of a request whose scope has no client (all such requests share it)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass(frozen=True, slots=True)
class TrustedProxies:
    """The proxies whose ``X-Forwarded-For`` is believed."""

    networks: tuple[Network, ...] = ()

    @classmethod
    def of(cls, entries: Iterable[str]) -> TrustedProxies:
        """Parse addresses and networks (``ValueError`` for one that is neither)."""
        networks = []
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                raise ValueError(
                    f"trusted proxy {entry!r}: give an IP address or network (10.0.0.0/8)"
                ) from None
        return cls(tuple(networks))

    def trusts(self, address: str) -> bool:
        """Whether ``address`` is one of the trusted proxies."""
        if not self.networks:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.networks)


def bucket_key(address: str) -> str:
    """The key ``address`` is counted under: an IPv4 address itself, an IPv6 address's
    ``/64`` network, anything else as given (at most 64 characters)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:64] or UNKNOWN
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def _forwarded_for(scope: Scope) -> list[str]:
    """The addresses of every ``X-Forwarded-For`` header, in order."""
    found: list[str] = []
    for name, value in scope.get("headers", ()):
        if name.lower() == b"x-forwarded-for":
            found.extend(part.strip() for part in value.decode("latin-1").split(","))
    return [part for part in found if part]


def client_address(scope: Scope, trusted: TrustedProxies) -> str:
    """The address the request comes from (see the module's docstring), unnormalised."""
    client = scope.get("client")
    peer = str(client[0]) if client else UNKNOWN
    if not trusted.trusts(peer):
        return peer
    address = peer
    for hop in reversed(_forwarded_for(scope)):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return address  # not an address: the last one a trusted proxy vouched for
        address = hop
        if not trusted.trusts(hop):
            return hop
    return address
