"""The table layer, between the rules and every front end.

``engine`` <- ``table`` <- (``play``, ``server``, ``analysis``): the engine holds the rules and
nothing else; this layer holds what every front end needs on top of them and would otherwise
repeat: the one vocabulary of the game in English and Italian (:mod:`.vocabulary`, built on
the engine's own words in :mod:`italian_poker.engine.vocabulary`), the narration of what
happens at a table (:mod:`.narration`), the table machine that every front end drives
(:mod:`.machine`, fed :mod:`.commands`, reporting :mod:`.machine_events`), the types that
report a session (:mod:`.events`), the
players' statistics over finished deals (:mod:`.statistics`) and where the game keeps its
files (:mod:`.paths`). It imports only the engine and itself, and does no
I/O beyond reading the environment; the terminal game, the online server and the analysis
tools import it and never each other.
"""
