"""The ``italian-poker`` command line, the composition root: ``app`` gathers the commands,
one module each (``play``, ``rank``, ``replay``, ``stats``, ``advise``, ``review``,
``simulate``, ``serve``); ``errors``, ``language`` and ``histories`` are what they share."""
