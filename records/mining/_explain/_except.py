"""Explain a raise that reports the failure of a ``try`` body: what failed, and the steps for that failure.

The except's caught classes (or the ``isinstance`` tests of the caught exception) and the try body's
calls, imports and mapping lookups say what failed: a Hub download or file lookup, a JSON file, an
import, a key missing from a mapping. A ``try`` body with none of them gets no text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from records.mining._explain._facts import ExceptFacts, SiteFacts

_HUB_CALL = re.compile(
    r"(?:^|\.)(?:cached_files?|hf_hub_download|snapshot_download|get_checkpoint_shard_files|has_file|model_info|"
    r"list_repo_files|get_file_from_repo|http_get|try_to_load_from_cache|from_pretrained|"
    r"get_\w*(?:dict|file|files|config)\w*)$"
)
_HUB_ERRORS = frozenset({
    "RepositoryNotFoundError", "GatedRepoError", "RevisionNotFoundError", "EntryNotFoundError",
    "LocalEntryNotFoundError", "HfHubHTTPError", "HTTPError", "OfflineModeIsEnabled",
})  # fmt: skip
_REPO_PARAMS = (
    "pretrained_model_name_or_path", "path_or_repo_id", "repo_id", "model_id", "pretrained_model_name",
    "model_name_or_path", "path_or_repo", "repo_or_path",
)  # fmt: skip
_JSON_ERRORS = frozenset({"JSONDecodeError", "UnicodeDecodeError"})
_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError"})
_FAILURE = {
    "RepositoryNotFoundError": "no such repository on the Hub, or it is private",
    "GatedRepoError": "the repository is gated and this account has no access",
    "RevisionNotFoundError": "the revision does not exist in the repository",
    "EntryNotFoundError": "the file is not in the repository",
    "LocalEntryNotFoundError": "the file is not in the local cache and cannot be downloaded",
}


@dataclass
class ExceptText:
    """The generated text for a raise in an except block."""

    meaning: str
    when: str
    steps: list[str] = field(default_factory=list)
    example: str | None = None


def explain_except(
    facts: SiteFacts, handler: ExceptFacts, where: str, via: str, package_of: Callable[[str], str | None]
) -> ExceptText | None:
    """Return what a raise in an except block means and how to fix it, or None when the try is not read.

    ``where`` is the entry point in backticks, ``via`` the helpers it goes through, ``package_of``
    gives the pip name of an importable module (None for one that is not a package to install).
    """
    caught = [c.rsplit(".", 1)[-1] for c in handler.caught]
    shown = ", ".join(f"`{c}`" for c in caught if c not in {"Exception", "BaseException"})
    with_ = f" with {shown}" if shown else ""
    repo = next((p for p in _REPO_PARAMS if p in facts.params), None)
    hub_call = next((c for c in handler.calls if _HUB_CALL.search(c)), None)
    if (hub_call or set(caught) & _HUB_ERRORS) and repo is not None:
        return _hub(facts, caught, (hub_call, repo), f"When you call {where}{via}", (where, with_))
    if set(caught) & _IMPORT_ERRORS and handler.imports:
        return _import(facts, handler, (where, via, with_), package_of)
    if "KeyError" in caught and handler.lookups:
        return _lookup(facts, handler, where, via)
    calls = [c for c in handler.calls if "." in c or c[:1].islower()]
    if set(caught) & _JSON_ERRORS and any("json" in c for c in calls):
        calls = [next(c for c in calls if "json" in c)]  # the call that parses is the one that failed
    if not calls or len(calls) > 2:
        return None  # no call, or many: which one failed cannot be said
    call = calls[0]
    what = f"the call to `{call}()`" if len(calls) == 1 else f"its `try` block (calling `{calls[0]}()`, `{calls[1]}()`)"
    text = ExceptText(
        f"{where} raises `{facts.error_class}` when {what} fails{with_}.",
        f"When you call {where}{via} and {what} fails{with_}.",
    )
    if set(caught) & _JSON_ERRORS and call not in {"open", "len", "str"}:
        text.steps.append(f"Check the file that `{call}()` reads: it is not valid JSON (or not UTF-8 text).")
    return text


def _hub(
    facts: SiteFacts, caught: list[str], target: tuple[str | None, str], when: str, shown: tuple[str, str]
) -> ExceptText:
    (call, repo), (where, with_) = target, shown
    failure = next((_FAILURE[c] for c in caught if c in _FAILURE), None)
    what = f"`{call}()`" if call else "the download"
    meaning = f"{where} could not resolve `{repo}` to files: {what} failed{with_}"
    meaning += f" ({failure})." if failure else "."
    steps = []
    if "RevisionNotFoundError" in caught and "revision" in facts.params:
        steps.append("Check that `revision` names a branch, tag or commit that exists in the repository.")
    elif "GatedRepoError" in caught:
        steps.append(f"Request access to the gated repository `{repo}` names on its Hub page, then log in "
                     "with `hf auth login` or pass `token=`.")  # fmt: skip
    else:
        steps.append(f"Check that `{repo}` is a model id that exists on https://huggingface.co/models (such as "
                     "`org/name`) or the path of a local folder holding the model's files.")  # fmt: skip
        token_advice = "token" in facts.template.lower()  # the message's own advice says it better
        if ("token" in facts.params or "RepositoryNotFoundError" in caught) and not token_advice:
            steps.append(f"If `{repo}` is a private or gated repository, log in with `hf auth login` or pass `token=`.")
    if "local_files_only" in facts.params and "GatedRepoError" not in caught:
        steps.append(f"Offline, pass `local_files_only=True` (the files of `{repo}` must already be in the cache) "
                     "or a local folder.")  # fmt: skip
    return ExceptText(meaning, f"{when} and {what} fails{with_}.", steps)


def _import(
    facts: SiteFacts, handler: ExceptFacts, shown: tuple[str, str, str], package_of: Callable[[str], str | None]
) -> ExceptText:
    where, via, with_ = shown
    module = handler.imports[0].split(".", 1)[0]
    what = f"`import {handler.imports[0]}`"
    text = ExceptText(
        f"{where} raises `{facts.error_class}` when {what} fails{with_}.",
        f"When you call {where}{via} and {what} fails{with_}.",
    )
    package = package_of(module) if module not in {"transformers", "torch"} else None
    if package is not None:
        text.steps.append(f"Install `{package}` (the command is in the example fix).")
        text.example = f"pip install {package}"
    return text


def _lookup(facts: SiteFacts, handler: ExceptFacts, where: str, via: str) -> ExceptText:
    mapping, key = handler.lookups[0]
    key = facts.aliases.get(key, key)
    text = ExceptText(
        f"{where} looks `{key}` up in `{mapping}`, and `{mapping}` has no such key.",
        f"When you call {where}{via} and `{key}` is not a key of `{mapping}`.",
    )
    if key in facts.params or key.startswith("config."):
        text.steps.append(f"Set `{key}` to one of the keys of `{mapping}`.")
    return text
