"""Shared test configuration: the server fixtures (databases, app, clients) for every test."""

pytest_plugins = ["server_fixtures"]
