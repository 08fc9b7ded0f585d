"""``italian-poker serve``: host online tables."""

from __future__ import annotations

from typing import Annotated

import typer

from italian_poker.server.rate_limits import (
    COSTLY_REQUESTS,
    SEAT_TAKES,
    SOCKET_OPENS,
    TABLE_CREATIONS,
    Rate,
)


def per(default: Rate, count: int) -> Rate | None:
    """``default`` with ``count`` requests a period (its burst at most ``count``); None for 0."""
    if count == 0:
        return None
    return Rate(count, default.period_seconds, min(default.burst, count))


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Database URL, e.g. postgresql://user@host/db "
            "(default: SQLite in the data directory)."
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(help="The URL players open, when it differs (e.g. behind a proxy)."),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Redis shared by several server processes on one PostgreSQL database, e.g. "
            "redis://host:6379/0, rediss://user:password@host:6380/0 for TLS with a password "
            "(default: this process is the only one)."
        ),
    ] = None,
    bus_secret: Annotated[
        str | None,
        typer.Option(
            envvar="ITALIAN_POKER_BUS_SECRET",
            show_envvar=True,
            show_default=False,
            help="With --redis-url: the secret, the same in every process (16 characters or "
            "more), that seals their messages; prefer the environment variable (a flag shows "
            "in the process list).",
        ),
    ] = None,
    lease_seconds: Annotated[
        float,
        typer.Option(
            min=0.5,
            help="With --redis-url: how long a process's hold on a table lasts unless renewed "
            "(how long a table waits for another process when its owner dies).",
        ),
    ] = 10.0,
    node: Annotated[
        str | None,
        typer.Option(help="With --redis-url: this process's name (default: host name and pid)."),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="A reverse proxy (address or network, e.g. 127.0.0.1 or 10.0.0.0/8) whose "
            "X-Forwarded-For names the client; repeat for several (default: none, the peer's "
            "address is the client's).",
        ),
    ] = None,
    tables_per_hour: Annotated[
        int,
        typer.Option(
            min=0, help="Tables one address may create an hour, after a burst of 10 (0: no limit)."
        ),
    ] = TABLE_CREATIONS.count,
    seats_per_minute: Annotated[
        int,
        typer.Option(
            min=0, help="Seats one address may take a minute, after a burst of 20 (0: no limit)."
        ),
    ] = SEAT_TAKES.count,
    sockets_per_minute: Annotated[
        int,
        typer.Option(
            min=0,
            help="WebSockets one address may open a minute, after a burst of 30 (0: no limit).",
        ),
    ] = SOCKET_OPENS.count,
    downloads_per_minute: Annotated[
        int,
        typer.Option(
            min=0,
            help="Histories, replays, statistics and ledgers one address may "
            "download a minute, after a burst of 30 (0: no limit).",
        ),
    ] = COSTLY_REQUESTS.count,
    spectator_cap: Annotated[
        int,
        typer.Option(min=0, help="The most spectators a table may have at once (0: no cap)."),
    ] = 50,
    max_live_tables: Annotated[
        int,
        typer.Option(
            min=1,
            help="Tables kept in memory at most; at the cap the least recently used table "
            "nobody is at is unloaded (it comes back from the database when asked for).",
        ),
    ] = 1000,
    idle_unload_seconds: Annotated[
        float,
        typer.Option(min=0, help="A table nobody is at for this long leaves memory."),
    ] = 600.0,
    expire_days: Annotated[
        float,
        typer.Option(
            min=0.001,
            help="A table nobody joins or plays for this many days is expired: its game is "
            "deleted and its links answer 410 Gone.",
        ),
    ] = 30.0,
    keep_days: Annotated[
        int,
        typer.Option(
            min=0,
            help="Days an expired table's ledger and histories are kept, unless its host "
            "chose otherwise (0: deleted with the game).",
        ),
    ] = 30,
    no_advice: Annotated[
        bool,
        typer.Option(
            "--no-advice",
            help="Run without the draw hint (by default each table may offer it to the "
            "player whose draw it is; the host can turn it off per table).",
        ),
    ] = False,
) -> None:
    """Host an online table: friends play from their browsers, bots fill the seats
    (docs/server.md). With --redis-url, any number of such processes behind one address
    share the tables."""
    import uvicorn

    from italian_poker.analysis.advisor import advise_view
    from italian_poker.analysis.bots import make_bot
    from italian_poker.engine.policy import Policy
    from italian_poker.server.app import create_app
    from italian_poker.server.bus_seal import checked_secret
    from italian_poker.server.settings import ServerSettings

    def bot_factory(level: str, seed: int | None) -> Policy:
        return make_bot(level, seed=seed)

    try:
        settings = ServerSettings(
            database_url=database_url or "",
            host=host,
            port=port,
            public_url=public_url,
            redis_url=redis_url,
            bus_secret=bus_secret,
            lease_seconds=lease_seconds,
            node=node,
            trusted_proxies=tuple(trusted_proxy or ()),
            table_creations=per(TABLE_CREATIONS, tables_per_hour),
            seat_takes=per(SEAT_TAKES, seats_per_minute),
            socket_opens=per(SOCKET_OPENS, sockets_per_minute),
            costly_requests=per(COSTLY_REQUESTS, downloads_per_minute),
            spectator_cap=spectator_cap or None,
            max_live_tables=max_live_tables,
            idle_unload_seconds=idle_unload_seconds,
            expire_days=expire_days,
            keep_days=keep_days,
        )
    except ValueError as error:
        typer.echo(f"serve: {error}", err=True)
        raise typer.Exit(2) from None
    if redis_url is not None and settings.resolved_database_url().startswith("sqlite"):
        typer.echo(
            "--redis-url: several processes share one database server; give --database-url "
            "postgresql://... as well",
            err=True,
        )
        raise typer.Exit(2)
    if redis_url is not None:
        try:
            checked_secret(bus_secret)
        except ValueError as error:
            typer.echo(f"--redis-url: {error}", err=True)
            raise typer.Exit(2) from None
    typer.echo(f"Italian Poker server: open {settings.base_url}/ to create a table")
    typer.echo(f"Database: {settings.resolved_database_url()}")
    if redis_url is not None:
        typer.echo(f"Process {settings.resolved_node()}, one of several sharing a Redis")
    uvicorn.run(
        create_app(settings, bot_factory, advisor=None if no_advice else advise_view),
        host=host,
        port=port,
        ws_max_size=65_536,
        log_level="info",
        # uvicorn's own reading of X-Forwarded-For (the client, the scheme) believes the same
        # proxies, and none by default (not its 127.0.0.1).
        forwarded_allow_ips=list(settings.trusted_proxies),
    )
