"""Trigger errors in an installed transformers the way users hit them, and record each traceback.

This file runs inside a throw-away virtual environment (see ``benchmarks/raised/__main__.py``) with
torch and transformers installed; it imports only the standard library, torch and transformers (and
what they bring). Every model, tokenizer and configuration is built locally and tiny: nothing is
downloaded (run it under ``HF_HUB_OFFLINE=1``).

    python scenarios.py --out FILE.jsonl

Each scenario is a function that does what a user would do and is expected to raise. The runner
catches the exception and writes one JSON line with the traceback as Python prints it (temporary
paths replaced by stable ones), the exception's class and message, and the raising frame: the
innermost frame whose file is inside the transformers package.
"""

# Each scenario imports what it uses: a name missing from one version then fails that scenario alone.
# ruff: noqa: PLC0415

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import struct
import sys
import sysconfig
import tempfile
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import transformers
from transformers import (
    AutoConfig,
    AutoModel,
    AutoModelForCausalLM,
    AutoModelForMaskedLM,
    AutoModelForSeq2SeqLM,
    AutoTokenizer,
    BertConfig,
    GenerationConfig,
    GPT2Config,
    LlamaConfig,
    PreTrainedTokenizerFast,
    T5Config,
)

VERSION = transformers.__version__
MAJOR = int(VERSION.split(".")[0])
PACKAGE_DIR = Path(transformers.__file__).resolve().parent
SITE_PACKAGES = PACKAGE_DIR.parent
THIS_FILE = Path(__file__).resolve()

# Stable stand-ins for the paths of this machine, so that the output is reproducible.
USER_SITE = "/home/user/venv/lib/python3.11/site-packages"
USER_SCRIPT = "/home/user/repro.py"
USER_STDLIB = "/usr/lib/python3.11"

WORDS = [
    "the",
    "a",
    "cat",
    "dog",
    "sat",
    "on",
    "mat",
    "and",
    "ran",
    "far",
    "away",
    "hello",
    "world",
    "good",
    "day",
    "to",
    "you",
]
SPECIALS = ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]

WORK = Path(tempfile.mkdtemp(prefix="raised-"))

SCENARIOS: list[tuple[str, Callable[[], Any]]] = []


def scenario(fn: Callable[[], Any]) -> Callable[[], Any]:
    SCENARIOS.append((fn.__name__.removeprefix("s_").replace("_", "-"), fn))
    return fn


def fresh_dir(name: str) -> Path:
    path = WORK / name
    if path.exists():
        shutil.rmtree(path)
    path.mkdir(parents=True)
    return path


# --------------------------------------------------------------------------------------------------
# Tiny fixtures, built once


_CACHE: dict[str, Any] = {}


def cached(fn: Callable[[], Any]) -> Callable[[], Any]:
    def wrapper() -> Any:
        if fn.__name__ not in _CACHE:
            _CACHE[fn.__name__] = fn()
        return _CACHE[fn.__name__]

    wrapper.__name__ = fn.__name__
    return wrapper


@cached
def tokenizer_object() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.WordLevelTrainer(special_tokens=SPECIALS, min_frequency=1)
    tok.train_from_iterator([" ".join(WORDS)] * 2, trainer=trainer)
    return tok


@cached
def tokenizer_dir() -> Path:
    """A saved tokenizer without a padding token (the usual state of a causal LM's tokenizer)."""
    tok = PreTrainedTokenizerFast(tokenizer_object=tokenizer_object(), unk_token="[UNK]")
    path = fresh_dir("tokenizer")
    tok.save_pretrained(path)
    return path


def tok() -> Any:
    return AutoTokenizer.from_pretrained(tokenizer_dir())


def bert_tok() -> Any:
    return PreTrainedTokenizerFast(
        tokenizer_object=tokenizer_object(),
        unk_token="[UNK]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        pad_token="[UNK]",
    )


def vocab_size() -> int:
    return tokenizer_object().get_vocab_size()


def llama_config(**kwargs: Any) -> Any:
    base: dict[str, Any] = dict(
        vocab_size=vocab_size(),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=64,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=None,
    )
    base.update(kwargs)
    return LlamaConfig(**base)


def gpt2_config(**kwargs: Any) -> Any:
    base: dict[str, Any] = dict(vocab_size=vocab_size(), n_embd=16, n_layer=1, n_head=2, n_positions=32)
    base.update(kwargs)
    return GPT2Config(**base)


def bert_config(**kwargs: Any) -> Any:
    base: dict[str, Any] = dict(
        vocab_size=vocab_size(),
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=32,
    )
    base.update(kwargs)
    return BertConfig(**base)


def t5_config(**kwargs: Any) -> Any:
    base: dict[str, Any] = dict(
        vocab_size=vocab_size(),
        d_model=16,
        d_kv=8,
        d_ff=32,
        num_layers=1,
        num_decoder_layers=1,
        num_heads=2,
        decoder_start_token_id=0,
        pad_token_id=0,
        eos_token_id=2,
    )
    base.update(kwargs)
    return T5Config(**base)


def llama(**kwargs: Any) -> Any:
    torch.manual_seed(0)
    model = AutoModelForCausalLM.from_config(llama_config(**kwargs))
    return model.eval()


def gpt2(**kwargs: Any) -> Any:
    torch.manual_seed(0)
    return AutoModelForCausalLM.from_config(gpt2_config(**kwargs)).eval()


def t5(**kwargs: Any) -> Any:
    torch.manual_seed(0)
    return AutoModelForSeq2SeqLM.from_config(t5_config(**kwargs)).eval()


@cached
def llama_dir() -> Path:
    path = fresh_dir("model")
    llama().save_pretrained(path)
    return path


def copy_model_dir(name: str) -> Path:
    path = WORK / name
    if path.exists():
        shutil.rmtree(path)
    shutil.copytree(llama_dir(), path)
    return path


def ids(text: str = "the cat sat on the mat") -> Any:
    return tok()(text, return_tensors="pt").input_ids


def training_args(**kwargs: Any) -> Any:
    from transformers import TrainingArguments

    base: dict[str, Any] = dict(output_dir=str(WORK / "out"), report_to="none", use_cpu=True)
    base.update(kwargs)
    return TrainingArguments(**base)


class TinyDataset(torch.utils.data.Dataset):
    def __init__(self, n: int = 4, labels: bool = True) -> None:
        self.n = n
        self.labels = labels

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> dict[str, Any]:
        item = {"input_ids": torch.tensor([3, 4, 5, 6]), "attention_mask": torch.ones(4, dtype=torch.long)}
        if self.labels:
            item["labels"] = torch.tensor([3, 4, 5, 6])
        return item


class TinyIterable(torch.utils.data.IterableDataset):
    def __iter__(self) -> Any:
        for _ in range(4):
            yield {"input_ids": torch.tensor([3, 4, 5, 6]), "labels": torch.tensor([3, 4, 5, 6])}


def trainer(**kwargs: Any) -> Any:
    from transformers import Trainer

    base: dict[str, Any] = dict(model=llama(), args=training_args(max_steps=1))
    base.update(kwargs)
    return Trainer(**base)


def write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, indent=2))


# --------------------------------------------------------------------------------------------------
# Generation


@scenario
def s_generate_early_stopping_invalid() -> None:
    llama().generate(ids(), num_beams=2, early_stopping="sometimes", max_new_tokens=2)


@scenario
def s_generate_max_new_tokens_zero() -> None:
    llama().generate(ids(), max_new_tokens=0)


@scenario
def s_generate_cache_implementation_unknown() -> None:
    llama().generate(ids(), max_new_tokens=2, cache_implementation="paged_static_v2")


@scenario
def s_generate_compile_config_dict() -> None:
    llama().generate(ids(), max_new_tokens=2, compile_config={"fullgraph": True})


@scenario
def s_generate_num_return_sequences_greedy() -> None:
    llama().generate(ids(), max_new_tokens=2, num_return_sequences=3)


@scenario
def s_generate_num_return_sequences_over_beams() -> None:
    llama().generate(ids(), max_new_tokens=2, num_beams=2, num_return_sequences=4)


@scenario
def s_generate_forced_and_suppressed_token() -> None:
    llama().generate(ids(), max_new_tokens=2, forced_eos_token_id=2, suppress_tokens=[2])


@scenario
def s_generation_config_save_invalid() -> None:
    config = GenerationConfig(do_sample=False, temperature=0.3)
    config.save_pretrained(fresh_dir("genconfig"))


@scenario
def s_generation_config_streamer_attribute() -> None:
    config = GenerationConfig(max_new_tokens=2)
    config.streamer = object()
    llama().generate(ids(), generation_config=config)


@scenario
def s_generation_config_from_missing_dir() -> None:
    GenerationConfig.from_pretrained(fresh_dir("empty-genconfig"))


@scenario
def s_generation_config_bad_json() -> None:
    path = fresh_dir("bad-genconfig")
    (path / "generation_config.json").write_text('{"max_new_tokens": 5,}')
    GenerationConfig.from_pretrained(path)


@scenario
def s_generate_watermark_bad_seeding_scheme() -> None:
    from transformers import WatermarkingConfig

    llama().generate(ids(), max_new_tokens=2, watermarking_config=WatermarkingConfig(seeding_scheme="random"))


@scenario
def s_generate_watermark_bad_greenlist_ratio() -> None:
    from transformers import WatermarkingConfig

    llama().generate(ids(), max_new_tokens=2, watermarking_config=WatermarkingConfig(greenlist_ratio=1.5))


@scenario
def s_generate_watermark_bad_context_width() -> None:
    from transformers import WatermarkingConfig

    llama().generate(ids(), max_new_tokens=2, watermarking_config=WatermarkingConfig(context_width=0))


@scenario
def s_generate_inputs_and_input_ids() -> None:
    x = ids()
    llama().generate(x, input_ids=x, max_new_tokens=2)


@scenario
def s_generate_no_input_no_bos() -> None:
    model = llama(bos_token_id=None)
    model.generation_config.bos_token_id = None
    model.generate(max_new_tokens=2)


@scenario
def s_generate_stop_strings_without_tokenizer() -> None:
    llama().generate(ids(), max_new_tokens=2, stop_strings=["mat"])


@scenario
def s_generate_streamer_with_beam_search() -> None:
    from transformers import TextStreamer

    llama().generate(ids(), max_new_tokens=2, num_beams=2, streamer=TextStreamer(tok()))


@scenario
def s_generate_streamer_batch() -> None:
    from transformers import TextStreamer

    t = tok()
    x = torch.cat([ids(), ids()])
    llama().generate(x, max_new_tokens=2, streamer=TextStreamer(t))


@scenario
def s_generate_assisted_num_return_sequences() -> None:
    llama().generate(ids(), max_new_tokens=2, assistant_model=llama(), num_return_sequences=2, do_sample=True)


@scenario
def s_generate_assisted_same_tokenizer() -> None:
    t = tok()
    llama().generate(ids(), max_new_tokens=2, assistant_model=llama(), tokenizer=t, assistant_tokenizer=t)


@scenario
def s_generate_assisted_different_vocab() -> None:
    llama().generate(ids(), max_new_tokens=2, assistant_model=llama(vocab_size=vocab_size() + 7))


@scenario
def s_generate_assisted_batch() -> None:
    x = torch.cat([ids(), ids()])
    llama().generate(x, attention_mask=torch.ones_like(x), max_new_tokens=2, assistant_model=llama())


@scenario
def s_generate_assisted_stateful_model() -> None:
    from transformers import MambaConfig, MambaForCausalLM

    config = MambaConfig(vocab_size=vocab_size(), hidden_size=16, state_size=4, num_hidden_layers=1, expand=2)
    torch.manual_seed(0)
    model = MambaForCausalLM(config).eval()
    model.generate(ids(), max_new_tokens=2, assistant_model=MambaForCausalLM(config).eval())


@scenario
def s_generate_unused_model_kwargs() -> None:
    llama().generate(ids(), max_new_tokens=2, temprature=0.7)


@scenario
def s_generate_input_longer_than_max_length() -> None:
    llama().generate(ids(), max_length=3)


@scenario
def s_generate_modified_model_config() -> None:
    model = llama()
    model.config.num_beams = 3
    model.generate(ids(), max_new_tokens=2)


@scenario
def s_generate_cache_implementation_and_cache() -> None:
    from transformers import DynamicCache

    llama().generate(ids(), max_new_tokens=2, cache_implementation="static", past_key_values=DynamicCache())


@scenario
def s_generate_legacy_tuple_cache() -> None:
    k = torch.zeros(1, 1, 2, 8)
    llama().generate(ids(), max_new_tokens=2, past_key_values=((k, k),))


@scenario
def s_generate_quantized_cache_unsupported() -> None:
    gpt2().generate(ids(), max_new_tokens=2, cache_implementation="quantized")


@scenario
def s_generate_quantized_cache_missing_backend() -> None:
    llama().generate(ids(), max_new_tokens=2, cache_implementation="quantized", cache_config={"backend": "quanto"})


@scenario
def s_generate_encoder_decoder_no_start_token() -> None:
    model = t5(decoder_start_token_id=None, bos_token_id=None)
    model.generation_config.decoder_start_token_id = None
    model.generation_config.bos_token_id = None
    model.generate(ids(), max_new_tokens=2)


@scenario
def s_generate_dola_layers() -> None:
    llama().generate(ids(), max_new_tokens=2, dola_layers="high")


@scenario
def s_generate_attention_mask_3d() -> None:
    x = ids()
    llama().generate(x, attention_mask=torch.ones(1, x.shape[1], x.shape[1]), max_new_tokens=2)


@scenario
def s_generate_token_healing_without_tokenizer() -> None:
    llama().generate(ids(), max_new_tokens=2, token_healing=True)


@scenario
def s_generate_low_memory_beam_search() -> None:
    llama().generate(ids(), max_new_tokens=2, num_beams=2, low_memory=True)


@scenario
def s_generate_prefill_chunking_without_cache() -> None:
    llama().generate(ids(), max_new_tokens=2, prefill_chunk_size=2, use_cache=False)


@scenario
def s_generate_temperature_zero_sampling() -> None:
    llama().generate(ids(), max_new_tokens=2, do_sample=True, temperature=0.0)


@scenario
def s_generate_top_p_negative() -> None:
    llama().generate(ids(), max_new_tokens=2, do_sample=True, top_p=-0.5)


@scenario
def s_generate_top_k_negative() -> None:
    llama().generate(ids(), max_new_tokens=2, do_sample=True, top_k=-5)


@scenario
def s_generate_min_p_above_one() -> None:
    llama().generate(ids(), max_new_tokens=2, do_sample=True, min_p=2.0)


@scenario
def s_generate_typical_p_negative() -> None:
    llama().generate(ids(), max_new_tokens=2, do_sample=True, typical_p=-0.5)


@scenario
def s_generate_repetition_penalty_negative() -> None:
    llama().generate(ids(), max_new_tokens=2, repetition_penalty=-1.0)


@scenario
def s_generate_encoder_repetition_penalty_negative() -> None:
    t5().generate(ids(), max_new_tokens=2, encoder_repetition_penalty=-1.0)


@scenario
def s_generate_bad_words_ids_empty_list() -> None:
    llama().generate(ids(), max_new_tokens=2, bad_words_ids=[[]])


@scenario
def s_generate_bad_words_ids_not_nested() -> None:
    llama().generate(ids(), max_new_tokens=2, bad_words_ids=[5, 6])


@scenario
def s_generate_bad_words_ids_negative() -> None:
    llama().generate(ids(), max_new_tokens=2, bad_words_ids=[[-3]])


@scenario
def s_generate_sequence_bias_list_keys() -> None:
    llama().generate(ids(), max_new_tokens=2, sequence_bias={5: -10.0})


@scenario
def s_generate_sequence_bias_string_values() -> None:
    llama().generate(ids(), max_new_tokens=2, sequence_bias={(5,): "low"})


@scenario
def s_generate_prefix_allowed_tokens_empty() -> None:
    llama().generate(ids(), max_new_tokens=2, prefix_allowed_tokens_fn=lambda batch_id, sent: [])


@scenario
def s_logits_processor_no_repeat_ngram_zero() -> None:
    from transformers import NoRepeatNGramLogitsProcessor

    NoRepeatNGramLogitsProcessor(0)


@scenario
def s_generate_on_bert_model() -> None:
    torch.manual_seed(0)
    AutoModel.from_config(bert_config()).generate(ids(), max_new_tokens=2)


@scenario
def s_generate_assistant_ensemble_weight() -> None:
    llama().generate(ids(), max_new_tokens=2, assistant_model=llama(), assistant_ensemble_weight=1.5)


# --------------------------------------------------------------------------------------------------
# Tokenizers


@scenario
def s_tokenizer_pad_without_pad_token() -> None:
    tok()(["the cat", "the cat sat on the mat"], padding=True)


@scenario
def s_tokenizer_tensors_without_padding() -> None:
    tok()(["the cat", "the cat sat on the mat"], return_tensors="pt")


@scenario
def s_tokenizer_return_tensors_unknown() -> None:
    tok()("the cat", return_tensors="tensorflow")


@scenario
def s_tokenizer_text_not_str() -> None:
    tok()(42)


@scenario
def s_tokenizer_text_pair_not_str() -> None:
    tok()("the cat", text_pair=7)


@scenario
def s_tokenizer_pad_missing_input_ids() -> None:
    bert_tok().pad([{"labels": [1, 2]}, {"labels": [3]}])


@scenario
def s_tokenizer_pad_to_multiple_truncation_mismatch() -> None:
    bert_tok()("the cat sat on the mat", max_length=5, truncation=True, padding=True, pad_to_multiple_of=2)


@scenario
def s_tokenizer_stride_too_large() -> None:
    tok()("the cat sat on the mat", max_length=3, truncation=True, stride=5, return_overflowing_tokens=True)


@scenario
def s_tokenizer_padding_side_invalid() -> None:
    PreTrainedTokenizerFast(tokenizer_object=tokenizer_object(), padding_side="middle")


@scenario
def s_tokenizer_truncation_side_invalid() -> None:
    PreTrainedTokenizerFast(tokenizer_object=tokenizer_object(), truncation_side="center")


@scenario
def s_tokenizer_no_backend() -> None:
    PreTrainedTokenizerFast()


@scenario
def s_tokenizer_add_special_tokens_unknown_key() -> None:
    tok().add_special_tokens({"sentinel_token": "<s0>"})


@scenario
def s_tokenizer_additional_special_tokens_not_list() -> None:
    tok().add_special_tokens({"additional_special_tokens": "<s0>"})


@scenario
def s_tokenizer_padding_strategy_invalid() -> None:
    bert_tok()("the cat", padding="longest_first")


@scenario
def s_tokenizer_truncation_strategy_invalid() -> None:
    tok()("the cat", truncation="only_middle", max_length=2)


@scenario
def s_tokenizer_only_second_without_pair() -> None:
    tok()(["the cat sat on the mat"], ["dog"], truncation="only_second", max_length=3)


@scenario
def s_tokenizer_from_empty_dir() -> None:
    AutoTokenizer.from_pretrained(fresh_dir("empty-tokenizer"))


@scenario
def s_tokenizer_from_hub_offline() -> None:
    AutoTokenizer.from_pretrained("meta-llama/Llama-3.2-1B")


@scenario
def s_tokenizer_unknown_tokenizer_class() -> None:
    path = fresh_dir("tokenizer-bad-class")
    for name in os.listdir(tokenizer_dir()):
        shutil.copy(tokenizer_dir() / name, path / name)
    cfg = json.loads((path / "tokenizer_config.json").read_text())
    cfg["tokenizer_class"] = "FancyTokenizerFast"
    write_json(path / "tokenizer_config.json", cfg)
    AutoTokenizer.from_pretrained(path)


@scenario
def s_tokenizer_sentencepiece_missing() -> None:
    from transformers import T5Tokenizer

    path = fresh_dir("spm")
    (path / "spiece.model").write_bytes(b"\x00")
    T5Tokenizer(vocab_file=str(path / "spiece.model"))


@scenario
def s_tokenizer_chat_template_missing() -> None:
    tok().apply_chat_template([{"role": "user", "content": "hello"}])


@scenario
def s_tokenizer_chat_template_raise_exception() -> None:
    t = tok()
    t.chat_template = "{% if messages[0]['role'] != 'system' %}{{ raise_exception('System role required') }}{% endif %}"
    t.apply_chat_template([{"role": "user", "content": "hello"}], tokenize=False)


@scenario
def s_tokenizer_chat_template_continue_and_generation_prompt() -> None:
    t = tok()
    t.chat_template = "{% for m in messages %}{{ m['content'] }} {% endfor %}"
    t.apply_chat_template(
        [{"role": "user", "content": "hello"}], continue_final_message=True, add_generation_prompt=True
    )


@scenario
def s_tokenizer_chat_template_continue_missing_message() -> None:
    t = tok()
    t.chat_template = "{% for m in messages %}{{ m['role'] }} {% endfor %}"
    t.apply_chat_template([{"role": "assistant", "content": "hello"}], continue_final_message=True, tokenize=False)


@scenario
def s_tokenizer_chat_template_assistant_mask_without_dict() -> None:
    t = tok()
    t.chat_template = "{% for m in messages %}{{ m['content'] }} {% endfor %}"
    t.apply_chat_template([{"role": "user", "content": "hello"}], return_assistant_tokens_mask=True, return_dict=False)


@scenario
def s_tokenizer_chat_template_tool_without_docstring() -> None:
    def get_weather(city: str) -> str:
        return city

    t = tok()
    t.chat_template = "{% for m in messages %}{{ m['content'] }} {% endfor %}"
    t.apply_chat_template([{"role": "user", "content": "hello"}], tools=[get_weather], tokenize=False)


@scenario
def s_tokenizer_chat_template_tool_without_type_hint() -> None:
    def get_weather(city):  # type: ignore[no-untyped-def]
        """Get the weather.

        Args:
            city: the city
        """
        return city

    t = tok()
    t.chat_template = "{% for m in messages %}{{ m['content'] }} {% endfor %}"
    t.apply_chat_template([{"role": "user", "content": "hello"}], tools=[get_weather], tokenize=False)


@scenario
def s_tokenizer_chat_template_tool_undocumented_arg() -> None:
    def get_weather(city: str, unit: str) -> str:
        """Get the weather.

        Args:
            city: the city
        """
        return city

    t = tok()
    t.chat_template = "{% for m in messages %}{{ m['content'] }} {% endfor %}"
    t.apply_chat_template([{"role": "user", "content": "hello"}], tools=[get_weather], tokenize=False)


@scenario
def s_tokenizer_return_offsets_with_slow() -> None:
    from transformers import BertTokenizer

    path = fresh_dir("bert-vocab")
    (path / "vocab.txt").write_text("\n".join([*SPECIALS, "[PAD]", *WORDS]))
    BertTokenizer(str(path / "vocab.txt"))("the cat", return_offsets_mapping=True)


@scenario
def s_tokenizer_model_max_length_overflow_tensor() -> None:
    t = bert_tok()
    t.model_max_length = 4
    torch.manual_seed(0)
    model = AutoModel.from_config(bert_config(max_position_embeddings=4))
    model(**t("the cat sat on the mat and ran far", return_tensors="pt"))


# --------------------------------------------------------------------------------------------------
# Configurations


@scenario
def s_config_from_empty_dir() -> None:
    AutoConfig.from_pretrained(fresh_dir("empty-config"))


@scenario
def s_config_bad_json() -> None:
    path = fresh_dir("bad-config")
    (path / "config.json").write_text('{"model_type": "llama", "hidden_size": 16,,}')
    AutoConfig.from_pretrained(path)


@scenario
def s_config_unknown_model_type() -> None:
    path = fresh_dir("unknown-type")
    write_json(path / "config.json", {"model_type": "llama9", "hidden_size": 16})
    AutoConfig.from_pretrained(path)


@scenario
def s_config_no_model_type() -> None:
    path = fresh_dir("no-type")
    write_json(path / "config.json", {"hidden_size": 16})
    AutoConfig.from_pretrained(path)


@scenario
def s_config_for_model_unknown() -> None:
    AutoConfig.for_model("llama9")


@scenario
def s_config_from_hub_offline() -> None:
    AutoConfig.from_pretrained("google-bert/bert-base-uncased")


@scenario
def s_config_save_to_file_path() -> None:
    path = WORK / "config-file.txt"
    path.write_text("x")
    llama_config().save_pretrained(path)


@scenario
def s_config_rope_unknown_type() -> None:
    llama(rope_scaling={"rope_type": "ntk-fancy", "factor": 2.0})


@scenario
def s_config_rope_linear_without_factor() -> None:
    llama(rope_scaling={"rope_type": "linear"})


@scenario
def s_config_problem_type_unknown() -> None:
    bert_config(problem_type="ranking")


@scenario
def s_config_heads_not_divisor() -> None:
    torch.manual_seed(0)
    AutoModel.from_config(bert_config(hidden_size=18, num_attention_heads=4))


@scenario
def s_config_attn_implementation_unknown() -> None:
    torch.manual_seed(0)
    AutoModelForCausalLM.from_config(llama_config(), attn_implementation="fast_attention")


@scenario
def s_config_flash_attention_missing() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), attn_implementation="flash_attention_2")


@scenario
def s_config_flash_attention_3_missing() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), attn_implementation="flash_attention_3")


@scenario
def s_config_sdpa_unsupported_model() -> None:
    from transformers import CTRLConfig

    torch.manual_seed(0)
    AutoModel.from_config(CTRLConfig(vocab_size=30, n_embd=16, n_layer=1, n_head=2, dff=32), attn_implementation="sdpa")


@scenario
def s_model_set_attn_implementation_unknown() -> None:
    model = AutoModelForCausalLM.from_pretrained(llama_dir(), attn_implementation="sdpa")
    model.set_attn_implementation("flash_attention_9")


@scenario
def s_config_dtype_unknown() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), torch_dtype="float17")


@scenario
def s_config_layer_types_mismatch() -> None:
    from transformers import Qwen2Config

    Qwen2Config(num_hidden_layers=2, layer_types=["full_attention"], hidden_size=16, num_attention_heads=2)


@scenario
def s_config_layer_types_unknown() -> None:
    from transformers import Qwen2Config

    Qwen2Config(num_hidden_layers=1, layer_types=["windowed"], hidden_size=16, num_attention_heads=2)


@scenario
def s_config_encoder_decoder_missing_parts() -> None:
    from transformers import EncoderDecoderConfig

    EncoderDecoderConfig(encoder={"model_type": "bert"})


# --------------------------------------------------------------------------------------------------
# Models and loading


@scenario
def s_model_from_dir_without_weights() -> None:
    path = fresh_dir("no-weights")
    llama_config().save_pretrained(path)
    AutoModelForCausalLM.from_pretrained(path)


@scenario
def s_model_from_empty_dir() -> None:
    AutoModelForCausalLM.from_pretrained(fresh_dir("empty-model"))


@scenario
def s_model_from_hub_offline() -> None:
    AutoModelForCausalLM.from_pretrained("openai-community/gpt2")


@scenario
def s_model_wrong_auto_class() -> None:
    path = fresh_dir("t5")
    t5().save_pretrained(path)
    AutoModelForCausalLM.from_pretrained(path)


@scenario
def s_model_from_config_wrong_auto_class() -> None:
    AutoModelForMaskedLM.from_config(llama_config())


@scenario
def s_model_auto_model_wrong_config_object() -> None:
    AutoModel.from_config({"model_type": "llama"})


@scenario
def s_model_init_with_dict_config() -> None:
    from transformers import LlamaForCausalLM

    LlamaForCausalLM({"hidden_size": 16})


@scenario
def s_model_size_mismatch() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), vocab_size=vocab_size() + 8)


@scenario
def s_model_truncated_safetensors() -> None:
    path = copy_model_dir("truncated")
    data = (path / "model.safetensors").read_bytes()
    (path / "model.safetensors").write_bytes(data[: len(data) // 2])
    AutoModelForCausalLM.from_pretrained(path)


@scenario
def s_model_missing_shard() -> None:
    path = fresh_dir("sharded")
    llama_config().save_pretrained(path)
    index = {"metadata": {"total_size": 10}, "weight_map": {"lm_head.weight": "model-00002-of-00002.safetensors"}}
    write_json(path / "model.safetensors.index.json", index)
    AutoModelForCausalLM.from_pretrained(path)


@scenario
def s_model_tf_weights_only() -> None:
    path = fresh_dir("tf-only")
    llama_config().save_pretrained(path)
    (path / "tf_model.h5").write_bytes(b"\x89HDF")
    AutoModelForCausalLM.from_pretrained(path)


@scenario
def s_model_use_safetensors_with_bin_only() -> None:
    path = fresh_dir("bin-only")
    model = llama()
    model.config.save_pretrained(path)
    torch.save(model.state_dict(), path / "pytorch_model.bin")
    AutoModelForCausalLM.from_pretrained(path, use_safetensors=True)


@scenario
def s_model_subfolder_missing() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), subfolder="v2")


@scenario
def s_model_device_map_unknown() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), device_map="fastest")


@scenario
def s_model_device_map_cuda() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), device_map="cuda")


@scenario
def s_model_gguf_missing_library() -> None:
    path = copy_model_dir("gguf")
    (path / "model.gguf").write_bytes(b"GGUF" + struct.pack("<IQQ", 99, 0, 0))
    AutoModelForCausalLM.from_pretrained(path, gguf_file="model.gguf")


@scenario
def s_model_trust_remote_code_required() -> None:
    path = copy_model_dir("remote-code")
    cfg = json.loads((path / "config.json").read_text())
    cfg["auto_map"] = {"AutoConfig": "configuration_custom.CustomConfig"}
    cfg["model_type"] = "custom"
    write_json(path / "config.json", cfg)
    (path / "configuration_custom.py").write_text(
        "from transformers import LlamaConfig\n\nclass CustomConfig(LlamaConfig):\n    model_type = 'custom'\n"
    )
    with StdinAtEof():
        AutoConfig.from_pretrained(path)


class StdinAtEof:
    """`trust_remote_code` asks on a terminal: answer as a script without one (stdin at EOF) would."""

    def __enter__(self) -> None:
        import io

        self._stdin = sys.stdin
        sys.stdin = io.StringIO("")

    def __exit__(self, *exc: object) -> None:
        sys.stdin = self._stdin


@scenario
def s_model_remote_code_missing_import() -> None:
    path = copy_model_dir("remote-import")
    cfg = json.loads((path / "config.json").read_text())
    cfg["auto_map"] = {"AutoConfig": "configuration_custom.CustomConfig"}
    write_json(path / "config.json", cfg)
    (path / "configuration_custom.py").write_text(
        "import flash_fancy_kernels\nfrom transformers import LlamaConfig\n\n"
        "class CustomConfig(LlamaConfig):\n    model_type = 'custom'\n"
    )
    AutoConfig.from_pretrained(path, trust_remote_code=True)


@scenario
def s_model_remote_code_missing_file() -> None:
    path = copy_model_dir("remote-missing")
    cfg = json.loads((path / "config.json").read_text())
    cfg["auto_map"] = {"AutoConfig": "configuration_custom.CustomConfig"}
    write_json(path / "config.json", cfg)
    AutoConfig.from_pretrained(path, trust_remote_code=True)


@scenario
def s_model_forward_ids_and_embeds() -> None:
    model = llama()
    x = ids()
    model(input_ids=x, inputs_embeds=model.get_input_embeddings()(x))


@scenario
def s_model_forward_no_inputs() -> None:
    llama()()


@scenario
def s_model_bert_forward_ids_and_embeds() -> None:
    torch.manual_seed(0)
    model = AutoModel.from_config(bert_config())
    x = ids()
    model(input_ids=x, inputs_embeds=model.get_input_embeddings()(x))


@scenario
def s_model_bert_forward_no_inputs() -> None:
    torch.manual_seed(0)
    AutoModel.from_config(bert_config())()


@scenario
def s_model_gpt2_forward_ids_and_embeds() -> None:
    model = gpt2()
    x = ids()
    model(input_ids=x, inputs_embeds=model.get_input_embeddings()(x))


@scenario
def s_model_t5_forward_without_decoder_inputs() -> None:
    t5()(input_ids=ids())


@scenario
def s_model_t5_forward_no_inputs() -> None:
    t5()(decoder_input_ids=ids())


@scenario
def s_model_sequence_classification_no_pad_token() -> None:
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_config(gpt2_config(pad_token_id=None))
    model(input_ids=torch.tensor([[3, 4, 5], [6, 7, 8]]))


@scenario
def s_model_gpt2_position_out_of_range() -> None:
    gpt2()(input_ids=torch.randint(3, 10, (1, 40), generator=torch.Generator().manual_seed(0)))


@scenario
def s_model_token_id_out_of_vocab() -> None:
    llama()(input_ids=torch.tensor([[3, 4, vocab_size() + 100]]))


@scenario
def s_model_labels_wrong_shape() -> None:
    from transformers import AutoModelForSequenceClassification

    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_config(bert_config(num_labels=3))
    model(input_ids=ids(), labels=torch.tensor([[0, 1]]))


@scenario
def s_model_resize_embeddings_bad_multiple() -> None:
    llama().resize_token_embeddings(vocab_size() + 3, pad_to_multiple_of=2.5)


@scenario
def s_model_gradient_checkpointing_unsupported() -> None:
    from transformers import CTRLConfig

    torch.manual_seed(0)
    model = AutoModel.from_config(CTRLConfig(vocab_size=30, n_embd=16, n_layer=1, n_head=2, dff=32))
    model.gradient_checkpointing_enable()


@scenario
def s_model_load_adapter_without_peft() -> None:
    llama().load_adapter(str(fresh_dir("adapter")))


@scenario
def s_model_encoder_decoder_nothing() -> None:
    from transformers import EncoderDecoderModel

    EncoderDecoderModel()


@scenario
def s_model_vision_encoder_decoder_nothing() -> None:
    from transformers import VisionEncoderDecoderModel

    VisionEncoderDecoderModel()


@scenario
def s_model_from_pretrained_max_memory_bad() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), device_map="auto", max_memory={"cpu": "lots"})


@scenario
def s_model_cache_position_with_legacy_cache() -> None:
    llama()(input_ids=ids(), past_key_values=((torch.zeros(1, 1, 2, 8), torch.zeros(1, 1, 2, 8)),), use_cache=True)


@scenario
def s_model_output_bad_key() -> None:
    out = llama()(input_ids=ids())
    out["hidden_states_last"]


@scenario
def s_model_output_setitem() -> None:
    out = llama()(input_ids=ids())
    out.pop("logits")


# --------------------------------------------------------------------------------------------------
# Caches


@scenario
def s_cache_layer_index_out_of_range() -> None:
    from transformers import DynamicCache

    DynamicCache()[3]


@scenario
def s_cache_quantized_missing_backend() -> None:
    from transformers import QuantizedCache

    QuantizedCache(backend="quanto", config=llama_config())


@scenario
def s_cache_quantized_hqq_missing() -> None:
    from transformers import QuantizedCache

    QuantizedCache(backend="hqq", config=llama_config())


@scenario
def s_cache_quantized_unknown_backend() -> None:
    from transformers import QuantizedCache

    QuantizedCache(backend="int2", config=llama_config())


@scenario
def s_cache_static_overflow() -> None:
    from transformers import StaticCache

    model = llama()
    cache = StaticCache(config=model.config, max_cache_len=4)
    model(input_ids=ids(), past_key_values=cache, use_cache=True)


@scenario
def s_cache_crop_sliding() -> None:
    from transformers import DynamicCache

    cache = DynamicCache(config=llama_config(sliding_window=4, layer_types=["sliding_attention"]))
    model = llama(sliding_window=4, layer_types=["sliding_attention"])
    model(input_ids=ids(), past_key_values=cache, use_cache=True)
    cache.crop(2)


# --------------------------------------------------------------------------------------------------
# Quantization configurations


@scenario
def s_quant_bnb_4bit_and_8bit() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_4bit=True, load_in_8bit=True)


@scenario
def s_quant_bnb_threshold_type() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_8bit=True, llm_int8_threshold="6")


@scenario
def s_quant_bnb_skip_modules_type() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_8bit=True, llm_int8_skip_modules="lm_head")


@scenario
def s_quant_bnb_offload_type() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_8bit=True, llm_int8_enable_fp32_cpu_offload="yes")


@scenario
def s_quant_bnb_compute_dtype_bad() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_compute_dtype=16)


@scenario
def s_quant_bnb_quant_type_bad() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=4)


@scenario
def s_quant_bnb_double_quant_bad() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_use_double_quant="true")


@scenario
def s_quant_bnb_unused_kwargs() -> None:
    from transformers import BitsAndBytesConfig

    BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_storage=16)


@scenario
def s_quant_bnb_load_without_library() -> None:
    from transformers import BitsAndBytesConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=BitsAndBytesConfig(load_in_4bit=True))


@scenario
def s_quant_bnb_8bit_load_without_library() -> None:
    from transformers import BitsAndBytesConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=BitsAndBytesConfig(load_in_8bit=True))


@scenario
def s_quant_load_in_8bit_kwarg() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), load_in_8bit=True)


@scenario
def s_quant_gptq_bits() -> None:
    from transformers import GPTQConfig

    GPTQConfig(bits=5)


@scenario
def s_quant_gptq_damp() -> None:
    from transformers import GPTQConfig

    GPTQConfig(bits=4, damp_percent=2.0)


@scenario
def s_quant_gptq_dataset() -> None:
    from transformers import GPTQConfig

    GPTQConfig(bits=4, dataset="my-dataset")


@scenario
def s_quant_gptq_group_size() -> None:
    from transformers import GPTQConfig

    GPTQConfig(bits=4, group_size=0)


@scenario
def s_quant_gptq_load_without_library() -> None:
    from transformers import GPTQConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=GPTQConfig(bits=4))


@scenario
def s_quant_awq_version() -> None:
    from transformers import AwqConfig

    AwqConfig(version="gemm_v9")


@scenario
def s_quant_awq_load_without_library() -> None:
    from transformers import AwqConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=AwqConfig())


@scenario
def s_quant_quanto_weights() -> None:
    from transformers import QuantoConfig

    QuantoConfig(weights="int3")


@scenario
def s_quant_quanto_activations() -> None:
    from transformers import QuantoConfig

    QuantoConfig(weights="int8", activations="int4")


@scenario
def s_quant_quanto_load_without_library() -> None:
    from transformers import QuantoConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=QuantoConfig(weights="int8"))


@scenario
def s_quant_eetq_weights() -> None:
    from transformers import EetqConfig

    EetqConfig(weights="int4")


@scenario
def s_quant_hqq_nbits() -> None:
    from transformers import HqqConfig

    HqqConfig(nbits=5)


@scenario
def s_quant_hqq_load_without_library() -> None:
    from transformers import HqqConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=HqqConfig(nbits=4))


@scenario
def s_quant_higgs_bits() -> None:
    from transformers import HiggsConfig

    HiggsConfig(bits=5)


@scenario
def s_quant_torchao_unknown() -> None:
    from transformers import TorchAoConfig

    TorchAoConfig(quant_type="int3_weight_only")


@scenario
def s_quant_fp8_activation_scheme() -> None:
    from transformers import FineGrainedFP8Config

    FineGrainedFP8Config(activation_scheme="weird")


@scenario
def s_quant_fp8_block_size() -> None:
    from transformers import FineGrainedFP8Config

    FineGrainedFP8Config(weight_block_size=(128,))


@scenario
def s_quant_fp8_load_on_cpu() -> None:
    from transformers import FineGrainedFP8Config

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=FineGrainedFP8Config())


@scenario
def s_quant_spqr_bits() -> None:
    from transformers import SpQRConfig

    SpQRConfig(bits=3.5)


@scenario
def s_quant_aqlm_load_without_library() -> None:
    from transformers import AqlmConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=AqlmConfig())


@scenario
def s_quant_unknown_method_dict() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config={"quant_method": "magic"})


@scenario
def s_quant_bitnet_load() -> None:
    from transformers import BitNetQuantConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=BitNetQuantConfig())


@scenario
def s_quant_compressed_tensors_missing() -> None:
    from transformers import CompressedTensorsConfig

    CompressedTensorsConfig()


@scenario
def s_quant_vptq_load() -> None:
    from transformers import VptqConfig

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=VptqConfig())


@scenario
def s_quant_mxfp4_load() -> None:
    from transformers import Mxfp4Config

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=Mxfp4Config())


@scenario
def s_quant_fbgemm_load() -> None:
    from transformers import FbgemmFp8Config

    AutoModelForCausalLM.from_pretrained(llama_dir(), quantization_config=FbgemmFp8Config())


@scenario
def s_quant_quark_missing() -> None:
    from transformers import QuarkConfig

    QuarkConfig()


# --------------------------------------------------------------------------------------------------
# Training arguments and the argument parser


@scenario
def s_args_fp16_and_bf16() -> None:
    training_args(fp16=True, bf16=True)


@scenario
def s_args_full_eval_both() -> None:
    training_args(fp16_full_eval=True, bf16_full_eval=True)


@scenario
def s_args_tf32_on_cpu() -> None:
    training_args(tf32=True)


@scenario
def s_args_plateau_without_eval() -> None:
    training_args(lr_scheduler_type="reduce_lr_on_plateau")


@scenario
def s_args_warmup_negative() -> None:
    training_args(warmup_steps=-1)


@scenario
def s_args_logging_steps_zero() -> None:
    training_args(logging_strategy="steps", logging_steps=0)


@scenario
def s_args_logging_steps_fraction() -> None:
    training_args(logging_steps=1.5)


@scenario
def s_args_eval_steps_fraction() -> None:
    training_args(eval_strategy="steps", eval_steps=2.5)


@scenario
def s_args_save_steps_fraction() -> None:
    training_args(save_steps=2.5)


@scenario
def s_args_eval_steps_zero() -> None:
    training_args(eval_strategy="steps", eval_steps=0, logging_steps=0)


@scenario
def s_args_load_best_strategy_mismatch() -> None:
    training_args(load_best_model_at_end=True, eval_strategy="epoch", save_strategy="steps")


@scenario
def s_args_load_best_steps_not_multiple() -> None:
    training_args(load_best_model_at_end=True, eval_strategy="steps", eval_steps=3, save_steps=5)


@scenario
def s_args_load_best_fraction_steps() -> None:
    training_args(load_best_model_at_end=True, eval_strategy="steps", eval_steps=0.3, save_steps=0.5)


@scenario
def s_args_load_best_without_eval() -> None:
    training_args(load_best_model_at_end=True)


@scenario
def s_args_optim_unknown() -> None:
    training_args(optim="adam_fast")


@scenario
def s_args_eval_strategy_unknown() -> None:
    training_args(eval_strategy="sometimes")


@scenario
def s_args_fsdp_unknown_option() -> None:
    training_args(fsdp="shard_everything")


@scenario
def s_args_set_evaluate_zero_steps() -> None:
    training_args().set_evaluate(strategy="steps", steps=0)


@scenario
def s_args_set_save_zero_steps() -> None:
    training_args().set_save(strategy="steps", steps=0)


@scenario
def s_args_set_logging_zero_steps() -> None:
    training_args().set_logging(strategy="steps", steps=0)


@scenario
def s_args_parser_unused_cli_args() -> None:
    from transformers import HfArgumentParser, TrainingArguments

    HfArgumentParser(TrainingArguments).parse_args_into_dataclasses(
        ["--output_dir", str(WORK / "out"), "--report_to", "none", "--use_cpu", "--learning-rate-typo", "1"],
        return_remaining_strings=False,
        look_for_args_file=False,
    )


@scenario
def s_args_parser_unused_dict_keys() -> None:
    from transformers import HfArgumentParser, TrainingArguments

    HfArgumentParser(TrainingArguments).parse_dict(
        {"output_dir": str(WORK / "out"), "report_to": "none", "use_cpu": True, "lr": 1e-4}
    )


@scenario
def s_args_parser_json_unused() -> None:
    from transformers import HfArgumentParser, TrainingArguments

    path = WORK / "args.json"
    write_json(path, {"output_dir": str(WORK / "out"), "report_to": "none", "use_cpu": True, "epochs": 3})
    HfArgumentParser(TrainingArguments).parse_json_file(str(path))


# --------------------------------------------------------------------------------------------------
# Trainer


@scenario
def s_trainer_without_model() -> None:
    from transformers import Trainer

    Trainer(args=training_args())


@scenario
def s_trainer_train_without_dataset() -> None:
    trainer().train()


@scenario
def s_trainer_evaluate_without_dataset() -> None:
    trainer().evaluate()


@scenario
def s_trainer_iterable_without_max_steps() -> None:
    trainer(args=training_args(), train_dataset=TinyIterable()).train()


def tiny_model_init() -> Any:
    return llama()


@scenario
def s_trainer_optimizers_with_model_init() -> None:
    from transformers import Trainer

    model = llama()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    Trainer(model_init=tiny_model_init, args=training_args(max_steps=1), optimizers=(opt, None))


@scenario
def s_trainer_resume_no_checkpoint() -> None:
    trainer(args=training_args(max_steps=1, output_dir=str(fresh_dir("out-empty"))), train_dataset=TinyDataset()).train(
        resume_from_checkpoint=True
    )


@scenario
def s_trainer_resume_bad_path() -> None:
    trainer(train_dataset=TinyDataset()).train(resume_from_checkpoint=str(WORK / "checkpoint-500"))


@scenario
def s_trainer_model_returns_no_loss() -> None:
    trainer(
        train_dataset=TinyDataset(labels=False), args=training_args(max_steps=1, remove_unused_columns=False)
    ).train()


@scenario
def s_trainer_metric_for_best_missing() -> None:
    args = training_args(
        max_steps=1,
        eval_strategy="steps",
        eval_steps=1,
        save_steps=1,
        load_best_model_at_end=True,
        metric_for_best_model="accuracy",
    )
    trainer(args=args, train_dataset=TinyDataset(), eval_dataset=TinyDataset()).train()


@scenario
def s_trainer_args_dict() -> None:
    trainer(args={"output_dir": str(WORK / "out")})


@scenario
def s_trainer_early_stopping_without_metric() -> None:
    from transformers import EarlyStoppingCallback

    trainer(
        args=training_args(max_steps=1, eval_strategy="steps", eval_steps=1),
        train_dataset=TinyDataset(),
        eval_dataset=TinyDataset(),
        callbacks=[EarlyStoppingCallback()],
    ).train()


@scenario
def s_trainer_hyperparameter_search_no_init() -> None:
    trainer(train_dataset=TinyDataset()).hyperparameter_search(n_trials=1)


@scenario
def s_trainer_label_names_column_missing() -> None:
    trainer(train_dataset=[{"text": "the cat"}], args=training_args(max_steps=1)).train()


@scenario
def s_trainer_seq2seq_generation_bad() -> None:
    from transformers import Seq2SeqTrainer, Seq2SeqTrainingArguments

    args = Seq2SeqTrainingArguments(
        output_dir=str(WORK / "out"), report_to="none", use_cpu=True, generation_config=str(WORK / "nowhere")
    )
    Seq2SeqTrainer(model=t5(), args=args)


# --------------------------------------------------------------------------------------------------
# Optimization


@scenario
def s_optim_scheduler_unknown() -> None:
    from transformers import get_scheduler

    get_scheduler("warm-cosine", torch.optim.SGD(llama().parameters(), lr=0.1))


@scenario
def s_optim_scheduler_without_warmup() -> None:
    from transformers import get_scheduler

    get_scheduler("linear", torch.optim.SGD(llama().parameters(), lr=0.1))


@scenario
def s_optim_scheduler_without_training_steps() -> None:
    from transformers import get_scheduler

    get_scheduler("linear", torch.optim.SGD(llama().parameters(), lr=0.1), num_warmup_steps=2)


@scenario
def s_optim_adafactor_lr_and_relative_step() -> None:
    from transformers.optimization import Adafactor

    Adafactor(llama().parameters(), lr=1e-3, relative_step=True)


@scenario
def s_optim_adafactor_warmup_without_relative() -> None:
    from transformers.optimization import Adafactor

    Adafactor(llama().parameters(), lr=1e-3, relative_step=False, warmup_init=True)


@scenario
def s_optim_adafactor_sparse_grad() -> None:
    from transformers.optimization import Adafactor

    emb = torch.nn.Embedding(10, 4, sparse=True)
    opt = Adafactor(emb.parameters(), lr=1e-3, relative_step=False, scale_parameter=False)
    emb(torch.tensor([1, 2])).sum().backward()
    opt.step()


# --------------------------------------------------------------------------------------------------
# Data collators


@scenario
def s_collator_mlm_without_mask_token() -> None:
    from transformers import DataCollatorForLanguageModeling

    DataCollatorForLanguageModeling(tok(), mlm=True)


@scenario
def s_collator_mlm_probability_bad() -> None:
    from transformers import DataCollatorForLanguageModeling

    DataCollatorForLanguageModeling(bert_tok(), mlm=True, mlm_probability=1.5)


@scenario
def s_collator_lm_pad_without_pad_token() -> None:
    from transformers import DataCollatorForLanguageModeling

    collator = DataCollatorForLanguageModeling(tok(), mlm=False)
    collator([[3, 4, 5], [3, 4]])


@scenario
def s_collator_with_padding_no_pad_token() -> None:
    from transformers import DataCollatorWithPadding

    DataCollatorWithPadding(tok())([{"input_ids": [3, 4, 5]}, {"input_ids": [3]}])


@scenario
def s_collator_seq2seq_no_pad_token() -> None:
    from transformers import DataCollatorForSeq2Seq

    DataCollatorForSeq2Seq(tok())([{"input_ids": [3, 4, 5], "labels": [1]}, {"input_ids": [3], "labels": [1, 2]}])


@scenario
def s_collator_default_ragged() -> None:
    from transformers import default_data_collator

    default_data_collator([{"input_ids": [3, 4, 5]}, {"input_ids": [3]}])


@scenario
def s_collator_whole_word_mask_bad() -> None:
    from transformers import DataCollatorForWholeWordMask

    DataCollatorForWholeWordMask(tok(), mlm=True)([{"input_ids": [3, 4, 5]}])


@scenario
def s_collator_flattening_tf() -> None:
    from transformers import DataCollatorWithFlattening

    DataCollatorWithFlattening()([{"input_ids": [3, 4]}], return_tensors="tf")


@scenario
def s_collator_random_ratios_bad() -> None:
    from transformers import DataCollatorForLanguageModeling

    DataCollatorForLanguageModeling(bert_tok(), mlm=True, mask_replace_prob=0.7, random_replace_prob=0.5)


# --------------------------------------------------------------------------------------------------
# Pipelines


def text_generation_pipeline() -> Any:
    from transformers import pipeline

    return pipeline("text-generation", model=llama(), tokenizer=tok())


@scenario
def s_pipeline_nothing() -> None:
    from transformers import pipeline

    pipeline()


@scenario
def s_pipeline_unknown_task() -> None:
    from transformers import pipeline

    pipeline("text-summarisation", model=llama(), tokenizer=tok())


@scenario
def s_pipeline_task_from_hub_offline() -> None:
    from transformers import pipeline

    pipeline("sentiment-analysis")


@scenario
def s_pipeline_model_without_tokenizer() -> None:
    from transformers import pipeline

    pipeline("text-generation", model=llama())


@scenario
def s_pipeline_model_dir_without_tokenizer() -> None:
    from transformers import pipeline

    pipeline("text-generation", model=str(llama_dir()))


@scenario
def s_pipeline_model_object_without_task() -> None:
    from transformers import pipeline

    pipeline(model=llama(), tokenizer=tok())


@scenario
def s_pipeline_return_full_text_and_tensors() -> None:
    text_generation_pipeline()("the cat", max_new_tokens=1, return_full_text=True, return_tensors=True)


@scenario
def s_pipeline_return_text_and_tensors() -> None:
    text_generation_pipeline()("the cat", max_new_tokens=1, return_text=True, return_tensors=True)


@scenario
def s_pipeline_batching_without_pad_token() -> None:
    text_generation_pipeline()(["the cat", "the dog sat"], batch_size=2, max_new_tokens=1)


@scenario
def s_pipeline_handle_long_generation_bad() -> None:
    text_generation_pipeline()("the cat", max_new_tokens=1, handle_long_generation="truncate")


@scenario
def s_pipeline_chat_without_template() -> None:
    text_generation_pipeline()([{"role": "user", "content": "hello"}], max_new_tokens=1)


@scenario
def s_pipeline_fill_mask_no_mask() -> None:
    from transformers import pipeline

    torch.manual_seed(0)
    pipe = pipeline("fill-mask", model=AutoModelForMaskedLM.from_config(bert_config()), tokenizer=bert_tok())
    pipe("the cat sat on the mat")


@scenario
def s_pipeline_fill_mask_targets_bad() -> None:
    from transformers import pipeline

    torch.manual_seed(0)
    pipe = pipeline("fill-mask", model=AutoModelForMaskedLM.from_config(bert_config()), tokenizer=bert_tok())
    pipe("the [MASK] sat", targets=[])


def classifier_pipeline(task: str = "text-classification", **kwargs: Any) -> Any:
    from transformers import AutoModelForSequenceClassification, pipeline

    torch.manual_seed(0)
    model = AutoModelForSequenceClassification.from_config(
        bert_config(
            num_labels=3,
            label2id={"contradiction": 0, "neutral": 1, "entailment": 2},
            id2label={0: "contradiction", 1: "neutral", 2: "entailment"},
        )
    )
    return pipeline(task, model=model, tokenizer=bert_tok(), **kwargs)


@scenario
def s_pipeline_zero_shot_no_labels() -> None:
    classifier_pipeline("zero-shot-classification")("the cat sat", candidate_labels=[])


@scenario
def s_pipeline_zero_shot_bad_template() -> None:
    classifier_pipeline("zero-shot-classification")(
        "the cat sat", candidate_labels=["pets"], hypothesis_template="About pets"
    )


@scenario
def s_pipeline_text_classification_function_bad() -> None:
    classifier_pipeline()("the cat sat", function_to_apply="softplus")


@scenario
def s_pipeline_text_classification_bad_input() -> None:
    classifier_pipeline()([{"text": "the cat", "text_pair": "sat"}, {"txt": "no"}])


@scenario
def s_pipeline_token_classification_slow_tokenizer_aggregation() -> None:
    from transformers import AutoModelForTokenClassification, BertTokenizer, pipeline

    path = fresh_dir("bert-vocab-tc")
    (path / "vocab.txt").write_text("\n".join([*SPECIALS, "[PAD]", *WORDS]))
    torch.manual_seed(0)
    model = AutoModelForTokenClassification.from_config(bert_config(num_labels=2))
    pipeline(
        "token-classification",
        model=model,
        tokenizer=BertTokenizer(str(path / "vocab.txt")),
        aggregation_strategy="max",
    )("the cat")


@scenario
def s_pipeline_question_answering_no_context() -> None:
    from transformers import AutoModelForQuestionAnswering, pipeline

    torch.manual_seed(0)
    model = AutoModelForQuestionAnswering.from_config(bert_config())
    pipeline("question-answering", model=model, tokenizer=bert_tok())(question="where is the cat", context="")


@scenario
def s_pipeline_question_answering_bad_topk() -> None:
    from transformers import AutoModelForQuestionAnswering, pipeline

    torch.manual_seed(0)
    model = AutoModelForQuestionAnswering.from_config(bert_config())
    pipeline("question-answering", model=model, tokenizer=bert_tok())(question="where", context="the cat", top_k=0)


@scenario
def s_pipeline_question_answering_bad_args() -> None:
    from transformers import AutoModelForQuestionAnswering, pipeline

    torch.manual_seed(0)
    model = AutoModelForQuestionAnswering.from_config(bert_config())
    pipeline("question-answering", model=model, tokenizer=bert_tok())({"question": "where"})


@scenario
def s_pipeline_feature_extraction_truncation_bad() -> None:
    from transformers import pipeline

    torch.manual_seed(0)
    pipe = pipeline("feature-extraction", model=AutoModel.from_config(bert_config()), tokenizer=bert_tok())
    pipe("the cat", truncation=True, tokenize_kwargs={"truncation": True})


@scenario
def s_pipeline_text2text_bad_input() -> None:
    from transformers import pipeline

    pipe = pipeline("text2text-generation", model=t5(), tokenizer=tok())
    pipe(42)


@scenario
def s_pipeline_image_without_processor() -> None:
    from transformers import pipeline

    pipeline("image-classification", model=llama())


@scenario
def s_pipeline_audio_bad_input() -> None:
    from transformers import Wav2Vec2Config, Wav2Vec2FeatureExtractor, Wav2Vec2ForSequenceClassification, pipeline

    torch.manual_seed(0)
    config = Wav2Vec2Config(
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        conv_dim=(8,),
        conv_stride=(5,),
        conv_kernel=(10,),
        num_feat_extract_layers=1,
        num_conv_pos_embeddings=4,
        num_conv_pos_embedding_groups=2,
        vocab_size=vocab_size(),
        num_labels=2,
    )
    pipe = pipeline(
        "audio-classification",
        model=Wav2Vec2ForSequenceClassification(config),
        feature_extractor=Wav2Vec2FeatureExtractor(),
    )
    pipe({"raw": [0.0] * 100})


@scenario
def s_pipeline_audio_wrong_sampling_rate() -> None:
    from transformers import Wav2Vec2FeatureExtractor

    Wav2Vec2FeatureExtractor(sampling_rate=16000)([0.0] * 800, sampling_rate=8000)


# --------------------------------------------------------------------------------------------------
# Feature extractors, image processors and processors


@scenario
def s_feature_extractor_from_empty_dir() -> None:
    from transformers import AutoFeatureExtractor

    AutoFeatureExtractor.from_pretrained(fresh_dir("empty-fe"))


@scenario
def s_image_processor_from_empty_dir() -> None:
    from transformers import AutoImageProcessor

    AutoImageProcessor.from_pretrained(fresh_dir("empty-ip"))


@scenario
def s_processor_from_empty_dir() -> None:
    from transformers import AutoProcessor

    AutoProcessor.from_pretrained(fresh_dir("empty-proc"))


@scenario
def s_feature_extractor_bad_json() -> None:
    from transformers import AutoFeatureExtractor

    path = fresh_dir("bad-fe")
    (path / "preprocessor_config.json").write_text('{"feature_extractor_type": "Wav2Vec2FeatureExtractor",}')
    AutoFeatureExtractor.from_pretrained(path)


@scenario
def s_whisper_wrong_sampling_rate() -> None:
    from transformers import WhisperFeatureExtractor

    WhisperFeatureExtractor()([0.0] * 1600, sampling_rate=8000)


@scenario
def s_feature_extractor_pad_no_input_values() -> None:
    from transformers import Wav2Vec2FeatureExtractor

    Wav2Vec2FeatureExtractor().pad([{"audio": [0.0, 0.1]}])


@scenario
def s_processor_wrong_component_type() -> None:
    from transformers import Wav2Vec2Processor

    Wav2Vec2Processor(feature_extractor=tok(), tokenizer=tok())


@scenario
def s_processor_no_inputs() -> None:
    from transformers import Wav2Vec2FeatureExtractor, Wav2Vec2Processor

    Wav2Vec2Processor(feature_extractor=Wav2Vec2FeatureExtractor(), tokenizer=bert_tok())()


@scenario
def s_image_processor_without_backend() -> None:
    from transformers import ViTImageProcessor

    ViTImageProcessor()(images="the cat.png")


# --------------------------------------------------------------------------------------------------
# More of the same kinds, in other corners


@scenario
def s_generate_beam_groups() -> None:
    llama().generate(ids(), max_new_tokens=2, num_beams=2, num_beam_groups=2)


@scenario
def s_generate_force_words_without_beams() -> None:
    llama().generate(ids(), max_new_tokens=2, force_words_ids=[[5]])


@scenario
def s_tokenizer_bert_missing_vocab() -> None:
    from transformers import BertTokenizer

    BertTokenizer(vocab_file=str(WORK / "vocab.txt"))


@scenario
def s_config_hidden_act_unknown() -> None:
    llama(hidden_act="gelu_fancy")


@scenario
def s_processor_clip_missing_image_processor() -> None:
    from transformers import CLIPProcessor

    CLIPProcessor(image_processor=None, tokenizer=tok())


@scenario
def s_model_tp_plan_without_distributed() -> None:
    AutoModelForCausalLM.from_pretrained(llama_dir(), tp_plan="auto")


@scenario
def s_model_save_bad_shard_size() -> None:
    llama().save_pretrained(fresh_dir("shards"), max_shard_size="lots")


@scenario
def s_model_from_config_file_path() -> None:
    AutoModelForCausalLM.from_pretrained(str(llama_dir() / "config.json"))


# --------------------------------------------------------------------------------------------------
# Runner


def normalize(text: str) -> str:
    text = text.replace(str(SITE_PACKAGES), USER_SITE)
    text = text.replace(str(THIS_FILE), USER_SCRIPT)
    text = text.replace(sysconfig.get_paths()["stdlib"], USER_STDLIB)
    text = text.replace(str(WORK), "/tmp")
    real_work = os.path.realpath(WORK)
    if real_work != str(WORK):
        text = text.replace(real_work, "/tmp")
    text = re.sub(r"0x[0-9a-fA-F]{6,16}", "0x7f0000000000", text)
    return text


def raising_frame(tb: Any) -> tuple[dict[str, Any] | None, bool]:
    frames = traceback.extract_tb(tb)
    inside = None
    for frame in frames:
        path = Path(frame.filename).resolve()
        if path.is_relative_to(PACKAGE_DIR):
            inside = frame
    last = Path(frames[-1].filename).resolve() if frames else None
    raised_by = last is not None and last.is_relative_to(PACKAGE_DIR)
    if inside is None:
        return None, False
    rel = Path(inside.filename).resolve().relative_to(PACKAGE_DIR)
    return {
        "filePath": f"src/transformers/{rel.as_posix()}",
        "lineNumber": inside.lineno,
        "function": inside.name,
    }, raised_by


def run(fn: Callable[[], Any]) -> dict[str, Any] | None:
    random.seed(0)
    torch.manual_seed(0)
    try:
        fn()
    except BaseException as exc:  # every failure is the point here
        if isinstance(exc, KeyboardInterrupt):
            raise
        # The paste starts at the scenario, as a user's script would (this runner's frame left out).
        tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
        text = "".join(traceback.TracebackException(type(exc), exc, tb).format())
        frame, raised_by = raising_frame(tb)
        return {
            "text": normalize(text).rstrip("\n"),
            "errorClass": type(exc).__name__,
            "message": normalize(str(exc)),
            "filePath": frame["filePath"] if frame else None,
            "lineNumber": frame["lineNumber"] if frame else None,
            "function": frame["function"] if frame else None,
            "raisedByTransformers": raised_by,
        }
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="JSON Lines file to write")
    parser.add_argument("--only", nargs="*", help="run only these scenarios")
    args = parser.parse_args()

    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    torch.set_num_threads(1)
    warnings.simplefilter("ignore")
    transformers.logging.set_verbosity_error()

    # Whatever the scenarios print (a Trainer's logs, a streamer's text) goes to stderr: stdout
    # carries only the summary line.
    stdout, sys.stdout = sys.stdout, sys.stderr
    rows = []
    silent = []
    for name, fn in SCENARIOS:
        if args.only and name not in args.only:
            continue
        result = run(fn)
        if result is None:
            silent.append(name)
            continue
        rows.append({"id": f"raised-{VERSION}-{name}", "scenario": name, "version": VERSION, **result})
    rows.sort(key=lambda row: row["id"])
    with open(args.out, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False, sort_keys=False) + "\n")
    summary = {"version": VERSION, "packageDir": str(PACKAGE_DIR), "raised": len(rows), "silent": silent}
    sys.stdout = stdout
    print(json.dumps(summary))
    shutil.rmtree(WORK, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
