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
    # Repository paths (prefixes) of the only parts mined; empty: the whole package.
    include: tuple[str, ...] = ()
    # The wheel platform to download, when this machine's own would be needlessly large: only the
    # package's Python files are read, and they are the same in every platform's wheel.
    wheel_platform: str | None = None

    def ref(self, version: str) -> str:
        """Return the tag of a release; a local version label (``2.5.1+cu121``) is not part of it."""
        return self.tag.format(version=version.partition("+")[0])


TORCH_PARTS = tuple(
    f"torch/{part}"
    for part in (
        "nn/",
        "utils/data/",
        "serialization.py",
        "cuda/",
        "amp/",
        "optim/",
        "distributed/run.py",
        "distributed/launch.py",
        "distributed/launcher/",
        "distributed/elastic/",
    )
)

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
    # The Python layer users hit; not the compiler stack (_dynamo, _inductor, fx, export, onnx), whose
    # errors the real pastes hardly show. The macOS wheel (130 MB, CPU only) instead of Linux's CUDA
    # build (500-900 MB): the same .py files.
    Library(
        "torch",
        "pytorch/pytorch",
        "",
        include=TORCH_PARTS,
        wheel_platform="macosx_14_0_arm64",
    ),
)


def canonical_name(name: str) -> str:
    """Return a project name as PyPI compares them (``Sentence_Transformers`` -> ``sentence-transformers``)."""
    return re.sub(r"[-_.]+", "-", name).lower()


KNOWN_LIBRARIES = {canonical_name(library.name): library for library in LIBRARIES}


def find_library(name: str) -> Library | None:
    """Return the known library of a PyPI project name, however it is spelled, or None."""
    return KNOWN_LIBRARIES.get(canonical_name(name))


def project_of_repo(repo: str | None) -> str:
    """Return the PyPI name of a repository's library (``huggingface/peft`` -> ``peft``), else its name."""
    for library in LIBRARIES:
        if repo is not None and library.repo.lower() == repo.lower():
            return library.name
    return (repo or "").rpartition("/")[2] or "library"
