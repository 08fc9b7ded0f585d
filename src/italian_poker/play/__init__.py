"""The terminal game (layer 2): a session of one human against bots, played full screen.

``session`` drives a :class:`~italian_poker.engine.match.Match` without any UI; ``app`` is the
Textual app, playing on ``table_screen`` (the keys, the amounts, the draw, the bots' turns),
which ``table_display`` draws with the ``widgets``; ``screens`` holds the help and the summary,
``keys`` the keys beyond the actions'; ``explain`` narrates each deal and the session; ``i18n``
holds every string in English and Italian; ``storage`` saves the hand histories. Bots come
from outside as :class:`~italian_poker.engine.policy.Policy` objects.
"""
