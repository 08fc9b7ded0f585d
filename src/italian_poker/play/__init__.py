"""The terminal game (layer 2): a session of one human against bots, played full screen.

``session`` drives a :class:`~italian_poker.engine.match.Match` without any UI; ``app`` is the
Textual table; ``explain`` narrates each deal and the session; ``i18n`` holds every string in
English and Italian; ``storage`` saves the hand histories. Bots come from outside as
:class:`~italian_poker.engine.policy.Policy` objects.
"""
