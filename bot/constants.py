"""Values every Discord-facing module shares, defined once."""

from __future__ import annotations

import discord

# Replies never ping: not the author, not a role, not @everyone quoted from a paste. Set on the client
# and on every send, so a path that forgets one still has the other.
NO_MENTIONS = discord.AllowedMentions.none()
