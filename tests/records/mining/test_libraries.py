"""The known libraries: names however spelled, tag formats, layouts."""

from __future__ import annotations

import pytest

from records.mining.libraries import LIBRARIES, canonical_name, find_library


@pytest.mark.parametrize(
    ("name", "version", "repo", "prefix", "tag"),
    [
        ("transformers", "4.57.6", "huggingface/transformers", "src/", "v4.57.6"),
        ("huggingface_hub", "0.26.0", "huggingface/huggingface_hub", "src/", "v0.26.0"),
        ("datasets", "3.0.0", "huggingface/datasets", "src/", "3.0.0"),
        ("trl", "0.12.0", "huggingface/trl", "", "v0.12.0"),
        ("safetensors", "0.4.5", "huggingface/safetensors", "bindings/python/py_src/", "v0.4.5"),
        ("tokenizers", "0.20.0", "huggingface/tokenizers", "bindings/python/py_src/", "v0.20.0"),
        ("Sentence_Transformers", "3.0.1", "huggingface/sentence-transformers", "", "v3.0.1"),
        ("bitsandbytes", "0.45.0", "bitsandbytes-foundation/bitsandbytes", "", "0.45.0"),
        ("torch", "2.5.1+cu121", "pytorch/pytorch", "", "v2.5.1"),
    ],
)
def test_a_known_library_gives_its_repository_layout_and_tag(
    name: str, version: str, repo: str, prefix: str, tag: str
) -> None:
    library = find_library(name)
    assert library is not None
    assert (library.repo, library.src_prefix, library.ref(version)) == (repo, prefix, tag)


def test_an_unknown_library_is_none() -> None:
    assert find_library("acme-tools") is None


@pytest.mark.parametrize("name", ["Huggingface_Hub", "huggingface.hub", "HUGGINGFACE--HUB", "huggingface-hub"])
def test_names_compare_as_pypi_compares_them(name: str) -> None:
    assert canonical_name(name) == "huggingface-hub"


def test_every_entry_is_well_formed() -> None:
    assert len({canonical_name(library.name) for library in LIBRARIES}) == len(LIBRARIES)
    for library in LIBRARIES:
        assert library.repo.count("/") == 1, library
        assert library.src_prefix in {"", "src/"} or library.src_prefix.endswith("/py_src/"), library
        assert "{version}" in library.tag, library
