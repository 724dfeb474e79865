"""Generated explanations of mined raises: one small module per guard shape, and the bad inputs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from records.merge import merge_site
from records.mining import mine_tree
from records.mining.versions import version_sentence
from records.model import Record
from tests.conftest import make_record, mine_sources, record_starting

GENERATION = '''
class GenerationMixin:
    def generate(self, inputs=None, repetition_penalty=1.0, num_beams=1, assistant_model=None, streamer=None):
        """Generate.

        Args:
            repetition_penalty (`float`, *optional*):
                The parameter for repetition penalty. 1.0 means no penalty.
            num_beams (`int`):
                Number of beams for beam search.
        """
        self._validate(repetition_penalty, num_beams, assistant_model, streamer)

    def _validate(self, repetition_penalty, num_beams, assistant_model, streamer):
        if repetition_penalty <= 0:
            raise ValueError(f"`repetition_penalty` has to be a strictly positive float, but is {repetition_penalty}")
        if assistant_model is not None and streamer is not None:
            raise ValueError("You cannot pass both `assistant_model` and `streamer`.")
'''

MODULE = """
import importlib.metadata
from packaging import version

ALLOWED = ("adamw_torch", "sgd")


def is_accelerate_available(min_version=None):
    return True


def from_pretrained(path, trust_remote_code=False, optim="adamw_torch", dtype="auto", **kwargs):
    if not trust_remote_code:
        raise ValueError("Loading this model requires you to execute custom code. Pass `trust_remote_code=True`.")
    if optim not in ALLOWED:
        raise ValueError(f"Unknown optimizer {optim}.")
    if not is_accelerate_available("0.26.0"):
        raise ImportError("Using `device_map` requires accelerate: `pip install 'accelerate>=0.26.0'`")
    if version.parse(importlib.metadata.version("bitsandbytes")) < version.parse("0.43.1"):
        raise ImportError("Your bitsandbytes is too old.")
    if kwargs.pop("legacy", None):
        raise ValueError("The `legacy` argument is not supported any more.")
    try:
        import sentencepiece  # noqa: F401
    except ImportError:
        raise ImportError("We could not import the module.")
    try:
        first(path)
        second(path)
        third(path)
    except RuntimeError:
        raise RuntimeError("One of the steps failed.")
    raise ValueError("Unreachable in practice.")


def removed_helper():
    raise ValueError("`removed_helper` was removed in v5. Use `new_helper` instead.")


class Tokenizer:
    def pad(self, batch):
        if self.pad_token is None:
            raise ValueError(
                "Asking to pad but the tokenizer does not have a padding token. Please select a token to use as "
                "`pad_token` `(tokenizer.pad_token = tokenizer.eos_token e.g.)`."
            )


class Model:
    def forward(self, input_ids=None, inputs_embeds=None):
        if (input_ids is None) ^ (inputs_embeds is not None):
            raise ValueError("You must specify exactly one of input_ids or inputs_embeds")
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> list[Record]:
    """Records mined from the two example modules."""
    return mine_sources(tmp_path_factory.mktemp("explain"), {"generation.py": GENERATION, "loading.py": MODULE})


def test_a_bound_on_a_parameter_names_the_public_method_and_the_allowed_side(records: list[Record]) -> None:
    record = record_starting(records, "`repetition_penalty` has to be")
    assert record.documentation is not None
    assert record.documentation.startswith("`model.generate()` refuses `repetition_penalty` <= `0`: it must be > `0`.")
    assert "`repetition_penalty`: The parameter for repetition penalty. 1.0 means no penalty." in record.documentation
    assert record.trigger_scenarios == (
        "When you call `model.generate()` (through `_validate()`) and `repetition_penalty` <= `0`. "
        "Parameters involved: `repetition_penalty`."
    )
    assert record.solutions[0] == "Set `repetition_penalty` to a value > `0`."
    assert "Make sure `repetition_penalty` is a strictly positive float." in record.solutions
    assert record.example_fix == (
        "# before: repetition_penalty <= 0\nmodel.generate(..., repetition_penalty=0)\n\n"
        "# after\nmodel.generate(..., repetition_penalty=1)"
    )
    assert record.generated == ["documentation", "triggerScenarios", "solutions", "exampleFix"]


def test_two_exclusive_arguments(records: list[Record]) -> None:
    record = record_starting(records, "You cannot pass both")
    assert (
        record.documentation
        == "`model.generate()` accepts only one of `assistant_model` and `streamer`; here both were given."
    )
    assert (
        record.solutions[0]
        == "Pass only one of `assistant_model` and `streamer` to `model.generate()`; drop the others."
    )
    assert record.example_fix is not None and "# after: only one of them" in record.example_fix


def test_a_flag_to_enable(records: list[Record]) -> None:
    record = record_starting(records, "Loading this model requires")
    assert record.documentation == "`from_pretrained()` works only with `trust_remote_code` enabled; here it is False."
    assert record.solutions[0] == (
        "Pass `trust_remote_code=True` to `from_pretrained()` (only for a repository whose code you trust)."
    )
    assert record.example_fix == (
        "# before\nfrom_pretrained(..., trust_remote_code=False)\n\n# after\nfrom_pretrained(..., trust_remote_code=True)"
    )


def test_allowed_values_from_a_module_constant(records: list[Record]) -> None:
    record = record_starting(records, "Unknown optimizer")
    assert (
        record.documentation == "`from_pretrained()` accepts only these values for `optim`: `'adamw_torch'`, `'sgd'`."
    )
    assert record.solutions == ["Set `optim` to one of `'adamw_torch'`, `'sgd'`."]
    assert record.example_fix == "# after: one of the accepted values\nfrom_pretrained(..., optim='adamw_torch')"


def test_a_missing_package_with_its_minimum_version(records: list[Record]) -> None:
    record = record_starting(records, "Using `device_map` requires accelerate")
    assert (
        record.documentation
        == "`from_pretrained()` needs the `accelerate` package (version 0.26.0 or newer), which is not installed."
    )
    assert record.solutions[0] == "Install `accelerate` (the command is in the example fix)."
    assert record.example_fix == 'pip install "accelerate>=0.26.0"'


def test_an_installed_version_too_old(records: list[Record]) -> None:
    record = record_starting(records, "Your bitsandbytes is too old")
    assert record.solutions == ["Upgrade `bitsandbytes` to 0.43.1 or newer (the command is in the example fix)."]
    assert record.example_fix == 'pip install -U "bitsandbytes>=0.43.1"'


def test_a_missing_token_quotes_the_messages_own_code(records: list[Record]) -> None:
    record = record_starting(records, "Asking to pad")
    assert record.documentation == "`Tokenizer.pad()` needs `tokenizer.pad_token`, but it is None."
    assert record.example_fix == "# as the message suggests\ntokenizer.pad_token = tokenizer.eos_token"
    assert record.solutions[0] == "Set `tokenizer.pad_token`; it is None when this check runs."
    assert any(s.startswith("Please select a token to use as `pad_token`") for s in record.solutions)


def test_exactly_one_of_two_arguments(records: list[Record]) -> None:
    record = record_starting(records, "You must specify exactly one")
    assert record.documentation == (
        "`Model.forward()` needs exactly one of `input_ids` and `inputs_embeds`: one of them, not both and not neither."
    )
    assert record.solutions[0] == "Pass exactly one of `input_ids` and `inputs_embeds` to `Model.forward()`."
    assert record.example_fix is not None and record.example_fix.endswith("model(..., input_ids=input_ids)")


def test_a_removed_api_points_to_the_release_that_had_it(records: list[Record]) -> None:
    record = record_starting(records, "`removed_helper` was removed")
    assert (
        record.documentation == "`removed_helper()` cannot be used in this version: its body only raises `ValueError`."
    )
    assert (
        'To keep using `removed_helper`, install a release before 5: `pip install "transformers<5"`.'
        in record.solutions
    )
    assert "Use `new_helper` instead." in record.solutions


@pytest.mark.parametrize(
    ("start", "field"),
    [
        ("The `legacy` argument", "documentation"),  # a condition with side effects (kwargs.pop)
        ("One of the steps failed", "documentation"),  # an except after three calls: which failed is unknown
        ("Unreachable in practice", "documentation"),  # after other statements: no guard to read
    ],
)
def test_unreadable_input_gets_no_generated_text(records: list[Record], start: str, field: str) -> None:
    record = record_starting(records, start)
    assert getattr(record, field) is None
    assert "documentation" not in record.generated


def test_the_mining_report_counts_the_unreadable(tmp_path: Path) -> None:
    (tmp_path / "loading.py").write_text(textwrap.dedent(MODULE))
    report = mine_tree(tmp_path, repo="acme/pkg", ref="v1.0", workers=1).report
    assert report.explain_skips == {
        "condition with side effects": 1,
        "raise in an except block with no condition": 1,
        "no guard": 1,
    }


def test_a_comment_is_used_only_when_it_explains_the_check(tmp_path: Path) -> None:
    source = """
    def load(model_id, cache_dir=None):
        # We cannot recover from them
        if cache_dir is None:
            raise OSError("Cannot find the model directory.")
        # Offline mode needs a cache: without one the files cannot be found on disk
        if not model_id:
            raise ValueError("Model id is empty.")
    """
    records = mine_sources(tmp_path, {"hub.py": source})
    assert "We cannot recover" not in (record_starting(records, "Cannot find").documentation or "")
    explained = record_starting(records, "Model id is empty").documentation or ""
    assert "The source says:" not in explained  # it does not name `model_id`


# --- provenance: curated always wins -------------------------------------------------------------


def test_merge_keeps_curated_text_and_marks_only_filled_gaps_as_generated() -> None:
    curated = Record.model_validate(make_record(id="seed", documentation="curated meaning", solutions=["do this"],
                                                triggerScenarios=None, exampleFix=None))  # fmt: skip
    mined = Record.model_validate(
        make_record(id="mined", documentation="generated meaning", solutions=["generated step"],
                    triggerScenarios="When you call `f()`", exampleFix="f(x=1)", origin="mined",
                    generated=["documentation", "solutions", "triggerScenarios", "exampleFix"])
    )  # fmt: skip
    merged = merge_site(curated, mined)
    assert merged.documentation == "curated meaning" and merged.solutions == ["do this"]
    assert (merged.trigger_scenarios, merged.example_fix) == ("When you call `f()`", "f(x=1)")
    assert merged.generated == ["exampleFix", "triggerScenarios"]


def test_generated_names_only_known_fields() -> None:
    with pytest.raises(ValueError, match="not a field the miner generates"):
        Record.model_validate(make_record(generated=["errorMessage"]))


def test_generated_round_trips_through_the_wire_form() -> None:
    record = Record.model_validate(make_record(generated=["solutions"]))
    assert Record.model_validate(record.to_wire()).generated == ["solutions"]


# --- versions: which shipped releases raise it ------------------------------------------------


def test_version_sentence_only_when_the_releases_differ() -> None:
    assert version_sentence(["4.57.6", "5.24.0"], {"4.57.6", "5.24.0"}) is None
    assert version_sentence(["4.57.6", "5.24.0"], {"5.24.0"}) == (
        "Of the shipped transformers versions (4.57.6, 5.24.0), only 5.24.0 raises this error; "
        "4.57.6 has no raise with this message."
    )


def test_the_pad_token_error_says_which_config_field_to_set(tmp_path: Path) -> None:
    source = """
    class LlamaForSequenceClassification:
        def forward(self, input_ids=None):
            batch_size = input_ids.shape[0]
            if self.config.pad_token_id is None and batch_size != 1:
                raise ValueError("Cannot handle batch sizes > 1 if no padding token is defined.")
    """
    record = record_starting(mine_sources(tmp_path, {"modeling_llama.py": source}), "Cannot handle batch sizes")
    assert record.solutions == ["Set `model.config.pad_token_id`; it is None when this check runs."]
    assert record.trigger_scenarios == (
        "When you call `LlamaForSequenceClassification.forward()` and `model.config.pad_token_id` is None and "
        "`batch_size` != `1`."
    )


def test_tests_around_a_try_are_not_the_cause_of_an_error_raised_in_its_except(tmp_path: Path) -> None:
    source = """
    def get_config(path):
        if is_local(path):
            return path
        else:
            try:
                return download(path)
            except OSError:
                raise OSError(f"Can't load the configuration of '{path}'.")
    """
    record = record_starting(mine_sources(tmp_path, {"hub.py": source}), "Can't load the configuration")
    assert record.documentation == "`get_config()` raises `OSError` when the call to `download()` fails with `OSError`."
    assert record.trigger_scenarios == "When you call `get_config()` and the call to `download()` fails with `OSError`."


def test_an_import_failing_in_a_try_says_which_package_to_install(records: list[Record]) -> None:
    record = record_starting(records, "We could not import")
    assert record.documentation == (
        "`from_pretrained()` raises `ImportError` when `import sentencepiece` fails with `ImportError`."
    )
    assert record.solutions[0] == "Install `sentencepiece` (the command is in the example fix)."
    assert record.example_fix == "pip install sentencepiece"


HUB = """
def cached_files(path_or_repo_id, filenames, token=None, revision=None, local_files_only=False):
    try:
        hf_hub_download(path_or_repo_id, filenames[0], token=token, revision=revision)
    except Exception as e:
        if isinstance(e, RepositoryNotFoundError) and not isinstance(e, GatedRepoError):
            raise OSError(f"{path_or_repo_id} is not a local folder and is not a valid model identifier")
        elif isinstance(e, RevisionNotFoundError):
            raise OSError(f"{revision} is not a valid git identifier (branch name, tag name or commit id)")
"""


def test_a_hub_download_failing_names_the_repo_id_the_token_and_the_revision(tmp_path: Path) -> None:
    records = mine_sources(tmp_path, {"hub.py": HUB})
    missing = record_starting(records, "{path_or_repo_id} is not a local folder")
    assert missing.documentation == (
        "`cached_files()` could not resolve `path_or_repo_id` to files: `hf_hub_download()` failed with "
        "`RepositoryNotFoundError` (no such repository on the Hub, or it is private)."
    )
    assert missing.solutions[0].startswith("Check that `path_or_repo_id` is a model id that exists on")
    assert "pass `token=`" in missing.solutions[1]  # the message says nothing of tokens
    revision = record_starting(records, "{revision} is not a valid git identifier")
    assert revision.solutions[0] == "Check that `revision` names a branch, tag or commit that exists in the repository."


def test_locals_are_traced_to_the_argument_or_config_field_they_hold(tmp_path: Path) -> None:
    source = """
    class Pipe:
        def __call__(self, inputs, **kwargs):
            top_k = kwargs.get("top_k")
            hidden = getattr(self.config, "hidden_size", None)
            if top_k is not None and top_k <= 0:
                raise ValueError("`top_k` must be positive.")
            if hidden is None:
                raise ValueError("The config has no hidden size.")
            if inputs.ndim not in (3, 4):
                raise ValueError(f"Unsupported number of dimensions: {inputs.ndim}")
    """
    records = mine_sources(tmp_path, {"pipe.py": source})
    assert record_starting(records, "`top_k` must be").solutions[0] == "Set `top_k` to a value > `0`."
    assert record_starting(records, "The config has no").solutions == [
        "Set `config.hidden_size`; it is None when this check runs."
    ]
    assert record_starting(records, "Unsupported number").solutions == [
        "Change the `inputs` you pass so that `inputs.ndim` is one of `3`, `4`."
    ]


def test_package_checks_read_from_find_spec_and_version_helpers(tmp_path: Path) -> None:
    source = """
    import importlib.util

    def load(model):
        if importlib.util.find_spec("flash_attn") is None:
            raise ImportError("flash_attn seems to be not installed.")
        if not is_quanto_greater("0.2.5", accept_dev=True):
            raise ImportError("Your quanto is too old.")
    """
    records = mine_sources(tmp_path, {"attn.py": source})
    assert record_starting(records, "flash_attn seems").example_fix == "pip install flash-attn"
    assert record_starting(records, "Your quanto").example_fix == 'pip install -U "optimum-quanto>=0.2.5"'


def test_a_long_value_cut_inside_a_string_still_mines(tmp_path: Path) -> None:
    # diffusers 0.42.1: a message built with += of a conditional expression over two long strings,
    # whose placeholder text, shortened, ended inside the second string and swallowed its closing brace.
    source = """
    def check(model_name, has_remote_code, disabled):
        if has_remote_code:
            error_msg = f"The repository for {model_name} contains custom code. "
            error_msg += (
                "Downloading remote code is disabled globally via the DISABLE_REMOTE_CODE environment variable."
                if disabled
                else "Pass `trust_remote_code=True` to allow loading remote code modules, once you have read it."
            )
            raise ValueError(error_msg)
    """
    record = record_starting(mine_sources(tmp_path, {"remote.py": source}), "The repository for")
    placeholder = record.error_message.removeprefix("The repository for {model_name} contains custom code. ")
    assert (
        placeholder
        == "{'Downloading remote code is disabled globally via the DISABLE_REMOTE_CODE environment variable.' if disabled else...}"
    )
