"""Check request bodies against Discord's documented limits.

Each checker returns a list of :class:`Problem`; :func:`form_errors` nests them into the
``errors`` object of Discord's ``50035 Invalid Form Body`` answer.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Payload = dict[str, Any]
Path = tuple[str | int, ...]

IS_COMPONENTS_V2 = 1 << 15
SELECT_TYPES = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6
EMBED_TOTAL = 6000
_EMBED_LIMITS = {"title": 256, "description": 4096}


@dataclass(frozen=True)
class Problem:
    """One broken field: where it is, Discord's error code and message."""

    path: Path
    code: str
    message: str


def _too_long(path: Path, value: object, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [Problem(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _bad_count(path: Path, items: object, low: int, high: int) -> list[Problem]:
    count = len(items) if isinstance(items, list) else 0
    if low <= count <= high:
        return []
    return [Problem(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")]


def _required(path: Path, value: object) -> list[Problem]:
    if value in (None, ""):
        return [Problem(path, "BASE_TYPE_REQUIRED", "This field is required")]
    return []


def form_errors(problems: list[Problem]) -> Payload:
    """Nest problems into Discord's ``errors`` object: ``{"embeds": {"0": {"title": {"_errors": []}}}}``."""
    errors: Payload = {}
    for problem in problems:
        node = errors
        for key in problem.path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": problem.code, "message": problem.message})
    return errors


def check_message(body: Payload, path: Path = ()) -> list[Problem]:
    """Check a message create/edit body: content, embeds, components, allowed mentions."""
    problems = _too_long((*path, "content"), body.get("content"), 2000)
    if body.get("embeds") is not None:
        problems += check_embeds(body["embeds"], (*path, "embeds"))
    if body.get("components") is not None:
        v2 = bool((body.get("flags") or 0) & IS_COMPONENTS_V2)
        problems += check_components(body["components"], (*path, "components"), v2=v2)
    if body.get("allowed_mentions") is not None:
        problems += _check_allowed_mentions(body["allowed_mentions"], (*path, "allowed_mentions"))
    return problems


def check_embeds(embeds: list[Payload], path: Path) -> list[Problem]:
    """Check every embed and the 6000-character total across them."""
    problems = _bad_count(path, embeds, 0, 10)
    for index, embed in enumerate(embeds[:10]):
        problems += _check_embed(embed, (*path, index))
    if sum(_embed_size(embed) for embed in embeds) > EMBED_TOTAL:
        problems.append(Problem(path, "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBED_TOTAL}"))
    return problems


def _check_embed(embed: Payload, path: Path) -> list[Problem]:
    problems = []
    for key, limit in _EMBED_LIMITS.items():
        problems += _too_long((*path, key), embed.get(key), limit)
    fields = embed.get("fields") or []
    problems += _bad_count((*path, "fields"), fields, 0, 25)
    for index, embed_field in enumerate(fields):
        field_path = (*path, "fields", index)
        problems += _required((*field_path, "name"), embed_field.get("name"))
        problems += _required((*field_path, "value"), embed_field.get("value"))
        problems += _too_long((*field_path, "name"), embed_field.get("name"), 256)
        problems += _too_long((*field_path, "value"), embed_field.get("value"), 1024)
    problems += _too_long((*path, "footer", "text"), (embed.get("footer") or {}).get("text"), 2048)
    problems += _too_long((*path, "author", "name"), (embed.get("author") or {}).get("name"), 256)
    return problems


def _embed_size(embed: Payload) -> int:
    texts = [embed.get("title"), embed.get("description")]
    texts += [(embed.get("footer") or {}).get("text"), (embed.get("author") or {}).get("name")]
    for embed_field in embed.get("fields") or []:
        texts += [embed_field.get("name"), embed_field.get("value")]
    return sum(len(text) for text in texts if isinstance(text, str))


def _walk(components: list[Payload], path: Path) -> Iterator[tuple[Payload, Path]]:
    """Yield every component and its path, depth first, through rows, sections and labels."""
    for index, component in enumerate(components):
        here = (*path, index)
        yield component, here
        yield from _walk(component.get("components") or [], (*here, "components"))
        for key in ("component", "accessory"):
            if isinstance(component.get(key), dict):
                yield from _walk([component[key]], (*here, key))


def check_components(components: list[Payload], path: Path, *, v2: bool = False) -> list[Problem]:
    """Check a message's component tree: rows, buttons, selects, custom ids."""
    problems = [] if v2 else _bad_count(path, components, 0, 5)
    if not v2:
        for index, row in enumerate(components):
            problems += _check_row(row, (*path, index))
    seen: set[str] = set()
    for component, here in _walk(components, path):
        problems += _check_component(component, here)
        custom_id = component.get("custom_id")
        if custom_id is not None and custom_id in seen:
            problems.append(
                Problem(
                    (*here, "custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                )
            )
        if custom_id is not None:
            seen.add(custom_id)
    return problems


def _check_row(row: Payload, path: Path) -> list[Problem]:
    if row.get("type") != 1:
        return [Problem((*path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')]
    children = row.get("components") or []
    problems = _bad_count((*path, "components"), children, 1, 5)
    if any(child.get("type") in SELECT_TYPES for child in children) and len(children) > 1:
        problems.append(
            Problem(
                (*path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        )
    return problems


def _check_component(component: Payload, path: Path) -> list[Problem]:
    problems = _too_long((*path, "custom_id"), component.get("custom_id"), 100)
    kind = component.get("type")
    if kind == 2:
        problems += _check_button(component, path)
    elif kind in SELECT_TYPES:
        problems += _check_select(component, path)
    elif kind == 4:
        problems += _check_text_input(component, path)
    return problems


def _check_button(button: Payload, path: Path) -> list[Problem]:
    problems = _too_long((*path, "label"), button.get("label"), 80)
    style = button.get("style")
    if style == LINK_STYLE:
        problems += _required((*path, "url"), button.get("url"))
        if button.get("custom_id") is not None:
            problems.append(
                Problem(
                    (*path, "custom_id"),
                    "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom id",
                )
            )
        problems += _too_long((*path, "url"), button.get("url"), 512)
    elif style != PREMIUM_STYLE:
        problems += _required((*path, "custom_id"), button.get("custom_id"))
        if button.get("url") is not None:
            problems.append(
                Problem((*path, "url"), "BUTTON_COMPONENT_URL_NOT_ALLOWED", "Only link buttons can have a url")
            )
    return problems


def _check_select(select: Payload, path: Path) -> list[Problem]:
    problems = _required((*path, "custom_id"), select.get("custom_id"))
    problems += _too_long((*path, "placeholder"), select.get("placeholder"), 150)
    if select.get("type") == 3:
        options = select.get("options") or []
        problems += _bad_count((*path, "options"), options, 1, 25)
        for index, option in enumerate(options):
            for key in ("label", "value", "description"):
                problems += _too_long((*path, "options", index, key), option.get(key), 100)
    return problems


def _check_text_input(text_input: Payload, path: Path) -> list[Problem]:
    problems = _required((*path, "custom_id"), text_input.get("custom_id"))
    problems += _too_long((*path, "label"), text_input.get("label"), 45)
    problems += _too_long((*path, "placeholder"), text_input.get("placeholder"), 100)
    return problems + _too_long((*path, "value"), text_input.get("value"), 4000)


def _check_allowed_mentions(allowed: Payload, path: Path) -> list[Problem]:
    parse = allowed.get("parse") or []
    problems = [
        Problem(
            (*path, "parse", index),
            "BASE_TYPE_CHOICES",
            "Value must be one of ('roles', 'users', 'everyone').",
        )
        for index, value in enumerate(parse)
        if value not in ("roles", "users", "everyone")
    ]
    for key in ("users", "roles"):
        if key in parse and allowed.get(key):
            problems.append(
                Problem(
                    path,
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{key}"] and {key}: [ids] are mutually exclusive.',
                )
            )
    return problems


def check_choices(data: Payload) -> list[Problem]:
    """Check an autocomplete callback's choices (at most 25, names 1-100 characters)."""
    choices = data.get("choices")
    problems = _bad_count(("data", "choices"), choices, 0, 25)
    for index, choice in enumerate(choices or []):
        path = ("data", "choices", index)
        problems += _required((*path, "name"), choice.get("name"))
        problems += _too_long((*path, "name"), choice.get("name"), 100)
        problems += _too_long((*path, "value"), choice.get("value"), 100)
    return problems


def check_modal(data: Payload) -> list[Problem]:
    """Check a modal: title at most 45 characters, custom id, one to five components."""
    problems = _required(("data", "title"), data.get("title"))
    problems += _too_long(("data", "title"), data.get("title"), 45)
    problems += _required(("data", "custom_id"), data.get("custom_id"))
    problems += _too_long(("data", "custom_id"), data.get("custom_id"), 100)
    components = data.get("components") or []
    problems += _bad_count(("data", "components"), components, 1, 5)
    for component, here in _walk(components, ("data", "components")):
        problems += _check_component(component, here)
    return problems


def check_commands(commands: list[Payload]) -> list[Problem]:
    """Check application commands as sent to a bulk overwrite."""
    problems = _bad_count((), commands, 0, 100)
    for index, command in enumerate(commands):
        problems += _check_command(command, (index,))
    return problems


def _check_command(command: Payload, path: Path) -> list[Problem]:
    name = command.get("name") or ""
    problems = _required((*path, "name"), name) + _too_long((*path, "name"), name, 32)
    if command.get("type", 1) == 1:
        if name != name.lower() or " " in name:
            problems.append(Problem((*path, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))
        problems += _required((*path, "description"), command.get("description"))
        problems += _too_long((*path, "description"), command.get("description"), 100)
    options = command.get("options") or []
    problems += _bad_count((*path, "options"), options, 0, 25)
    for index, option in enumerate(options):
        problems += _check_command(option | {"type": 1}, (*path, "options", index))
        problems += _bad_count((*path, "options", index, "choices"), option.get("choices") or [], 0, 25)
    return problems
