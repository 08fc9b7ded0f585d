"""Layer 1, the rules engine: pure, typed, no I/O. Nothing here imports a UI, server or database."""
