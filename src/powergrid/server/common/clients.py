"""Who is "a client" for the limits: the peer's address, or behind a trusted proxy the address it reports.

A client is its IP address; an IPv6 client is its /64 network (one host usually holds a whole /64,
so counting single IPv6 addresses would let it pick a fresh one for each request). When the server
runs behind a reverse proxy, every connection comes from the proxy: list the proxy's addresses in
``POWERGRID_TRUSTED_PROXIES`` and the client is then read from the header the proxy sets
(``POWERGRID_CLIENT_IP_HEADER``, ``X-Forwarded-For`` by default), walking it from the right and
skipping the trusted proxies, so that a client cannot pass itself off as another by sending the
header itself. A header from a peer that is not a trusted proxy is ignored.
"""

from __future__ import annotations

import hashlib
import ipaddress
from collections.abc import Iterable
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ClientAddresses:
    def __init__(self, trusted_proxies: Iterable[str] = (), header: str = "x-forwarded-for") -> None:
        self.trusted: tuple[Network, ...] = tuple(ipaddress.ip_network(p.strip(), strict=False)
                                                  for p in trusted_proxies if p.strip())
        self.header = header.strip().lower().encode("latin-1")

    def is_trusted(self, host: str | None) -> bool:
        address = _address(host)
        return address is not None and any(address in net for net in self.trusted)

    def of_peer(self, host: str | None) -> str:
        """The client key of a directly connected peer."""
        address = _address(host)
        if address is None:
            return host or "unknown"
        if address.version == 6 and address.ipv4_mapped is None:
            return str(ipaddress.ip_network(f"{address}/64", strict=False))
        return str(address.ipv4_mapped or address) if address.version == 6 else str(address)

    def of_scope(self, scope: dict[str, Any]) -> str:
        """The client key of an ASGI request or WebSocket."""
        peer = scope.get("client")
        host = peer[0] if peer else None
        if self.trusted and self.is_trusted(host):
            reported = self._reported(scope.get("headers", ()))
            if reported is not None:
                return self.of_peer(reported)
        return self.of_peer(host)

    def _reported(self, headers: Iterable[tuple[bytes, bytes]]) -> str | None:
        values = [v.decode("latin-1") for k, v in headers if k == self.header]
        hops = [h.strip() for v in values for h in v.split(",") if h.strip()]
        for hop in reversed(hops):
            if _address(hop) is None:
                return None  # garbage: fall back to the proxy's own address
            if not self.is_trusted(hop):
                return hop
        return hops[0] if hops else None


def creator_key(client: str) -> str:
    """What the database keeps of a client (the game quotas count by it): a hash, not the address."""
    return hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _address(host: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not host:
        return None
    try:
        return ipaddress.ip_address(host.strip().strip("[]"))
    except ValueError:
        return None
