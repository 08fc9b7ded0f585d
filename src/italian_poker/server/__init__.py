"""The online table (layer 3): a FastAPI server where friends play one table from their
browsers, with bots in empty seats. :func:`italian_poker.server.app.create_app` builds it."""
