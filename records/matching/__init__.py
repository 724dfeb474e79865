"""Matching pasted errors to records: index, evidence, decision."""

from records.matching.answers import Match
from records.matching.index import IndexEntry, MatchIndex
from records.matching.matcher import Matcher, MatchResult, Status, Thresholds

__all__ = ["IndexEntry", "Match", "MatchIndex", "MatchResult", "Matcher", "Status", "Thresholds"]
