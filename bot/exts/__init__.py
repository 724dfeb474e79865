"""The bot's features, one package each: answers, lookup, admin, triage."""
