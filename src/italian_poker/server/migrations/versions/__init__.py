"""Migration scripts, applied in order by :func:`italian_poker.server.database.upgrade`."""
