"""Every string of the terminal game in English and Italian: the table layer's vocabulary.

The words live once, in :mod:`italian_poker.table.vocabulary` (built on the engine's own,
:mod:`italian_poker.engine.vocabulary`), shared with the online table and the hand
histories; this module re-exports them under the names the terminal game has always used.
"""

from __future__ import annotations

from italian_poker.table.vocabulary import ACTION_KEYS as ACTION_KEYS
from italian_poker.table.vocabulary import ACTION_LABELS as ACTION_LABELS
from italian_poker.table.vocabulary import BOT_NAMES as BOT_NAMES
from italian_poker.table.vocabulary import HUMAN_NAMES as HUMAN_NAMES
from italian_poker.table.vocabulary import MESSAGES as MESSAGES
from italian_poker.table.vocabulary import PHASE_LABELS as PHASE_LABELS
from italian_poker.table.vocabulary import SUIT_NAMES as SUIT_NAMES
from italian_poker.table.vocabulary import Language as Language
from italian_poker.table.vocabulary import action_label as action_label
from italian_poker.table.vocabulary import counted as counted
from italian_poker.table.vocabulary import detect_language as detect_language
from italian_poker.table.vocabulary import either as either
from italian_poker.table.vocabulary import key_label as key_label
from italian_poker.table.vocabulary import phase_label as phase_label
from italian_poker.table.vocabulary import plural as plural
from italian_poker.table.vocabulary import suit_name as suit_name
from italian_poker.table.vocabulary import tr as tr
