"""The libraries tracebot knows how to mine by name: their GitHub repository, layout and tag format.

A mined record links ``https://github.com/<repo>/blob/<tag>/<src prefix><package>/<file>``, so for
each library three facts must match the real repository: where the importable package sits in it
(``src/``, ``bindings/python/py_src/`` or the top), and how a release's tag is spelled (``v4.57.6``
for most, the bare version for datasets and bitsandbytes). Each entry was checked against the
repository's tags and tree at an old release, one about a year old and the latest one.

Plain data: downloading a release is the command line's business (``bot.cli.wheels``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Library:
    """A library's PyPI name, its GitHub repository, where its package sits there, and its tag format."""

    name: str  # the PyPI project name
    repo: str  # OWNER/NAME on GitHub
    src_prefix: str  # repository path of the directory holding the package: "", "src/", ...
    tag: str = "v{version}"  # a release's tag, with {version}

    def ref(self, version: str) -> str:
        """Return the tag of a release; a local version label (``2.5.1+cu121``) is not part of it."""
        return self.tag.format(version=version.partition("+")[0])


LIBRARIES = (
    Library("transformers", "huggingface/transformers", "src/"),
    Library("huggingface-hub", "huggingface/huggingface_hub", "src/"),
    Library("accelerate", "huggingface/accelerate", "src/"),
    Library("peft", "huggingface/peft", "src/"),
    Library("datasets", "huggingface/datasets", "src/", tag="{version}"),
    Library("diffusers", "huggingface/diffusers", "src/"),
    Library("trl", "huggingface/trl", ""),
    # The Python layers of two Rust libraries; tags before safetensors 0.2.6 and tokenizers 0.11.1
    # were spelled python-v<version> only.
    Library("safetensors", "huggingface/safetensors", "bindings/python/py_src/"),
    Library("tokenizers", "huggingface/tokenizers", "bindings/python/py_src/"),
    # Moved from UKPLab/sentence-transformers in 2025; GitHub redirects the old links.
    Library("sentence-transformers", "huggingface/sentence-transformers", ""),
    Library("bitsandbytes", "bitsandbytes-foundation/bitsandbytes", "", tag="{version}"),
    Library("torch", "pytorch/pytorch", ""),
)


def canonical_name(name: str) -> str:
    """Return a project name as PyPI compares them (``Sentence_Transformers`` -> ``sentence-transformers``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


KNOWN_LIBRARIES = {canonical_name(library.name): library for library in LIBRARIES}


def find_library(name: str) -> Library | None:
    """Return the known library of a PyPI project name, however it is spelled, or None."""
    return KNOWN_LIBRARIES.get(canonical_name(name))
