"""Components and reply builders: persistent answer buttons, the record picker, search pages."""

from bot.views.answer import ReplyContent, answer_reply, answer_view, choices_view, record_reply
from bot.views.components import PERSISTENT_ITEMS, ComponentActions, DeleteButton, PickSelect, VoteButton

__all__ = [
    "PERSISTENT_ITEMS",
    "ComponentActions",
    "DeleteButton",
    "PickSelect",
    "ReplyContent",
    "VoteButton",
    "answer_reply",
    "answer_view",
    "choices_view",
    "record_reply",
]
