"""The curated environment records: errors no miner can read from Python source.

They are printed by C++/Rust code (torch, CUDA, NCCL, NumPy's C API, flash-attn, bitsandbytes,
tokenizers, safetensors) and by launchers.

Every record is complete and unique, its pattern runs on RE2, and real printed messages (pasted in public
GitHub issues, several wordings where the text changed across releases) are answered with it first.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

import pytest
import re2

from benchmarks.evalset import shipped_matcher, shipped_records
from records.matching.patterns import check_pattern
from records.model import Record
from records.reader import LoadedRecord, read_file

CURATED = Path(__file__).resolve().parents[2] / "records" / "data" / "curated" / "environment.jsonl"
# The library each repository's records are tagged with.
LIBRARY_TAG = {
    "pytorch/pytorch": "torch",
    "numpy/numpy": "numpy",
    "Dao-AILab/flash-attention": "flash-attn",
    "bitsandbytes-foundation/bitsandbytes": "bitsandbytes",
    "huggingface/tokenizers": "tokenizers",
    "huggingface/safetensors": "safetensors",
    "huggingface/accelerate": "accelerate",
    "vllm-project/vllm": "vllm",
    # Python's own errors whose cause is a transformers release (a name, argument or cache member it lacks)
    # or a package the running interpreter lacks.
    "huggingface/transformers": "transformers",
    "python/cpython": "python",
}


@cache
def curated() -> tuple[Record, ...]:
    items = list(read_file(CURATED))
    problems = [item for item in items if not isinstance(item, LoadedRecord)]
    assert not problems, problems
    return tuple(item.record for item in items if isinstance(item, LoadedRecord))


@cache
def by_slug() -> dict[str, Record]:
    return {record.slug or record.id: record for record in curated()}


def test_at_least_thirty_records() -> None:
    assert len(curated()) >= 30


def test_file_is_sorted_canonical_json_lines() -> None:
    lines = CURATED.read_text(encoding="utf-8").splitlines()
    raws = [json.loads(line) for line in lines]
    assert lines == [json.dumps(raw, ensure_ascii=False, sort_keys=True) for raw in raws]
    assert [raw["id"] for raw in raws] == sorted(raw["id"] for raw in raws)


def test_ids_and_slugs_are_unique_and_ids_come_from_the_slug() -> None:
    records = curated()
    ids = [r.id for r in records]
    slugs = [r.slug for r in records]
    assert len(set(ids)) == len(ids)
    assert None not in slugs and len(set(slugs)) == len(slugs)
    for record in records:
        assert record.id == hashlib.sha256(f"curated|env|{record.slug}".encode()).hexdigest()[:16]


@pytest.mark.sweep
def test_ids_and_slugs_are_not_used_by_other_shipped_records() -> None:
    ours = {r.id for r in curated()}
    others = [r for r in shipped_records() if r.id not in ours]
    assert not ours & {r.id for r in others}
    assert not {r.slug for r in curated()} & {r.slug for r in others if r.slug}


@pytest.mark.parametrize("record", curated(), ids=lambda r: r.slug or r.id)
def test_record_is_complete(record: Record) -> None:
    assert record.origin == "curated" and record.schema_version == 2
    assert record.repo in LIBRARY_TAG
    assert LIBRARY_TAG[record.repo] in record.tags
    assert record.error_class and record.error_type and record.severity
    assert record.documentation and len(record.documentation) >= 150
    assert 3 <= len(record.solutions) <= 6
    assert record.example_fix and "# before" in record.example_fix and "# after" in record.example_fix
    assert record.trigger_scenarios and record.common_situations
    assert record.prevention_tips
    assert record.line_number is None  # no pinned raise line: C++/Rust text, or Python whose line moves


@pytest.mark.parametrize("record", curated(), ids=lambda r: r.slug or r.id)
def test_message_pattern_runs_on_re2(record: Record) -> None:
    assert record.message_pattern
    assert check_pattern(record.message_pattern).usable
    re2.compile(record.message_pattern)


# Real printed messages, as pasted in public GitHub issues (the id names the thread): slug, text.
REAL_MESSAGES = [
    pytest.param(
        "torch-cuda-out-of-memory",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 11.06 MiB is free. Including non-PyTorch memory, this process has 23.60 GiB memory in use. Of the allocated memory 22.90 GiB is allocated by PyTorch, and 194.87 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)",
        id="pytorch/pytorch/issues/16417",
    ),
    pytest.param(
        "torch-cuda-out-of-memory",
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.78 GiB. GPU 0 has a total capacity of 31.47 GiB of which 12.73 GiB is free. Including non-PyTorch memory, this process has 18.73 GiB memory in use. Of the allocated memory 9.08 GiB is allocated by PyTorch, and 9.35 GiB is reserved by PyTorch but unallocated.",
        id="murong-xu/CADS/issues/4",
    ),
    pytest.param(
        "torch-cuda-out-of-memory",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.70 GiB. GPU 0 has a total capacty of 6.00 GiB of which 0 bytes is free. Of the allocated memory 2.93 GiB is allocated by PyTorch, and 2.30 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        id="carolchenyx/MGFN./issues/35",
    ),
    pytest.param(
        "torch-cuda-out-of-memory",
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 10.73 GiB (GPU 0; 8.00 GiB total capacity; 17.20 GiB already allocated; 0 bytes free; 19.15 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF",
        id="YingqianWang/iPASSR/issues/9",
    ),
    pytest.param(
        "torch-cuda-out-of-memory",
        "RuntimeError: CUDA out of memory. Tried to allocate 512.00 MiB (GPU 0; 15.90 GiB total capacity; 13.13 GiB already allocated; 415.88 MiB free; 14.80 GiB reserved in total by PyTorch)",
        id="2KangHo/vdsr_pytorch/issues/2",
    ),
    pytest.param(
        "torch-cuda-out-of-memory",
        "RuntimeError: CUDA out of memory. Tried to allocate 1024.00 KiB (GPU 0; 11.17 GiB total capacity; 10.90 GiB already allocated; 576.00 KiB free; 30.96 MiB cached)",
        id="shllln/GenerativeGraph/issues/5",
    ),
    pytest.param(
        "torch-cuda-error-out-of-memory",
        "RuntimeError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        id="tloen/alpaca-lora/issues/389",
    ),
    pytest.param(
        "torch-cuda-error-out-of-memory",
        "torch.AcceleratorError: CUDA error: out of memory\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        id="deepbeepmeep/Wan2GP/issues/1083",
    ),
    pytest.param(
        "torch-tensors-on-different-devices",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0! (when checking argument for argument mat2 in method wrapper_CUDA_mm)",
        id="hiyouga/LlamaFactory/issues/1647",
    ),
    pytest.param(
        "torch-tensors-on-different-devices",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (when checking argument for argument mat1 in method wrapper_CUDA_addmm)",
        id="haotian-liu/LLaVA/issues/1081",
    ),
    pytest.param(
        "torch-tensors-on-different-devices",
        "RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm)",
        id="ClownsharkBatwing/RES4LYF/pull/223",
    ),
    pytest.param(
        "torch-tensors-on-different-devices",
        "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!",
        id="XinzeLee/RotateObjectDetection/issues/27",
    ),
    pytest.param(
        "torch-mat1-mat2-shapes-cannot-be-multiplied",
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (1x18 and 512x1024)",
        id="nv-tlabs/datasetGAN_release/issues/49",
    ),
    pytest.param(
        "torch-mat1-mat2-shapes-cannot-be-multiplied",
        '  File "/home/admin/.local/lib/python3.9/site-packages/torch/nn/modules/linear.py", line 125, in forward\n    return F.linear(input, self.weight, self.bias)\nRuntimeError: mat1 and mat2 shapes cannot be multiplied (192721x92 and 103x64)',
        id="RosettaCommons/RFdiffusion/issues/384",
    ),
    pytest.param(
        "torch-mat1-mat2-dtype-mismatch",
        "RuntimeError: expected mat1 and mat2 to have the same dtype, but got: c10::Half != float",
        id="Vaibhavs10/fast-whisper-finetuning/issues/14",
    ),
    pytest.param(
        "torch-mat1-mat2-dtype-mismatch",
        "RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half",
        id="weiyifan1023/Neeko/issues/6",
    ),
    pytest.param(
        "torch-mat1-mat2-dtype-mismatch",
        "expected mat1 and mat2 to have the same dtype, but got: float!= c10::Half",
        id="ToTheBeginning/PuLID/issues/162",
    ),
    pytest.param(
        "torch-input-type-weight-type-mismatch",
        "RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same",
        id="LeapLabTHU/ACmix/issues/15",
    ),
    pytest.param(
        "torch-input-type-weight-type-mismatch",
        "RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.HalfTensor) should be the same",
        id="alvinliu0/HumanGaussian/issues/25",
    ),
    pytest.param(
        "torch-input-type-weight-type-mismatch",
        "RuntimeError: Input type (CUDAFloatTensor) and weight type (CUDAHalfTensor) should be the same",
        id="ayooshkathuria/pytorch-yolo-v3/issues/7",
    ),
    pytest.param(
        "torch-op-not-implemented-for-half",
        "RuntimeError: \"addmm_impl_cpu_\" not implemented for 'Half'",
        id="lm-sys/FastChat/issues/3153",
    ),
    pytest.param(
        "torch-op-not-implemented-for-half",
        "\"slow_conv2d_cpu\" not implemented for 'Half'",
        id="zai-org/VisualGLM-6B/issues/30",
    ),
    pytest.param(
        "torch-cuda-device-side-assert-triggered",
        '  File "D:\\Project\\Python_project\\MyProject\\dcp-master\\main.py", line 214, in train_one_epoch\n    total_loss += loss.item() * batch_size\n                  ^^^^^^^^^^^\nRuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.',
        id="WangYueFt/dcp/issues/30",
    ),
    pytest.param(
        "torch-cuda-device-side-assert-triggered",
        "RuntimeError: CUDA error: device-side assert triggered\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        id="szc19990412/TransMIL/issues/28",
    ),
    pytest.param(
        "torch-cuda-device-side-assert-triggered",
        "RuntimeError: CUDA error: device-side assert triggered",
        id="taishan1994/qlora-chinese-LLM/issues/3",
    ),
    pytest.param(
        "torch-cuda-error-asynchronous-kernel-error",
        " running_loss += loss.item()\nRuntimeError: CUDA error: unspecified launch failure\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        id="zhmou/Turbofan-engine-RUL-prediction/issues/4",
    ),
    pytest.param(
        "torch-cuda-error-asynchronous-kernel-error",
        " RuntimeError: CUDA error: unspecified launch failure\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1",
        id="Acly/krita-ai-diffusion/issues/930",
    ),
    pytest.param(
        "torch-cuda-no-kernel-image-available",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        id="dphnAI/sonar/issues/49",
    ),
    pytest.param(
        "torch-cuda-no-kernel-image-available",
        "RuntimeError: CUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        id="kohjingyu/gill/issues/39",
    ),
    pytest.param(
        "torch-cuda-illegal-memory-access",
        '  File "/data1/anaconda/env/ysj_llm/lib/python3.10/site-packages/torch/cuda/__init__.py", line 566, in synchronize\n    return torch._C._cuda_synchronize()\nRuntimeError: CUDA error: an illegal memory access was encountered',
        id="zai-org/CodeGeeX/issues/160",
    ),
    pytest.param(
        "torch-cuda-illegal-memory-access",
        "RuntimeError: CUDA error: an illegal memory access was encountered\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        id="3dlg-hcvc/multi3drefer/issues/14",
    ),
    pytest.param(
        "torch-cublas-status-not-initialized",
        "RuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)`",
        id="Vision-CAIR/MiniGPT-4/issues/89",
    ),
    pytest.param(
        "torch-cublas-status-not-initialized",
        '  File "C:\\Users\\user\\.conda\\envs\\llama\\Lib\\site-packages\\torch\\nn\\modules\\linear.py", line 114, in forward    \n    return F.linear(input, self.weight, self.bias)\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\nRuntimeError: CUDA error: CUBLAS_STATUS_NOT_INITIALIZED when calling `cublasCreate(handle)``',
        id="karpathy/llama2.c/issues/279",
    ),
    pytest.param(
        "torch-not-compiled-with-cuda",
        '  File "/home/xx/anaconda3/envs/tf-gpu/lib/python3.7/site-packages/torch/cuda/__init__.py", line 95, in _check_driver\n    raise AssertionError("Torch not compiled with CUDA enabled")\nAssertionError: Torch not compiled with CUDA enabled',
        id="facebookresearch/detectron2/issues/460",
    ),
    pytest.param(
        "torch-not-compiled-with-cuda",
        'Whenever trying to run train.py from the repository I run into the issue "AssertionError: Torch not compiled with CUDA enabled" does anyone have any advice on how to fix this?',
        id="karpathy/nanoGPT/issues/281",
    ),
    pytest.param(
        "torch-nvidia-driver-too-old",
        "RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.",
        id="lllyasviel/Fooocus/issues/1313",
    ),
    pytest.param(
        "torch-nvidia-driver-too-old",
        "AssertionError: \nThe NVIDIA driver on your system is too old (found version 9000).\nPlease update your GPU driver by downloading and installing a new\nversion from the URL: http://www.nvidia.com/Download/index.aspx\nAlternatively, go to: https://pytorch.org to install\na PyTorch version that has been compiled with your version\nof the CUDA driver.",
        id="wuhuikai/FastFCN/issues/37",
    ),
    pytest.param(
        "torch-cannot-reinitialize-cuda-in-forked-subprocess",
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the 'spawn' start method",
        id="facebookresearch/pycls/issues/183",
    ),
    pytest.param(
        "torch-cannot-reinitialize-cuda-in-forked-subprocess",
        "RuntimeError: Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the \\'spawn\\' start method",
        id="IDEA-Research/GroundingDINO/issues/276",
    ),
    pytest.param(
        "torch-distributed-no-nccl-built-in",
        "  raise RuntimeError(\"Distributed package doesn't have NCCL \"\nRuntimeError: Distributed package doesn't have NCCL built in",
        id="FacePerceiver/FaRL/issues/10",
    ),
    pytest.param(
        "torch-distributed-no-nccl-built-in",
        '  File "H:\\CONDA\\envs\\stylegan3\\lib\\site-packages\\torch\\distributed\\distributed_c10d.py", line 727, in _new_process_group_helper\n    raise RuntimeError("Distributed package doesn\'t have NCCL " "built in")\nRuntimeError: Distributed package doesn\'t have NCCL built in',
        id="bshall/hubert/issues/1",
    ),
    pytest.param(
        "numpy-1x-module-in-numpy-2",
        "ImportError: \nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\nSome module may need to rebuild instead e.g. with 'pybind11>=2.12'.\n\nIf you are a user of the module, the easiest solution will be to\ndowngrade to 'numpy<2' or try to upgrade the affected module.\nWe expect that some modules will need time to support NumPy 2.",
        id="jupyter/notebook/issues/7522",
    ),
    pytest.param(
        "numpy-1x-module-in-numpy-2",
        "A module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\nSome module may need to rebuild instead e.g. with 'pybind11>=2.12'.",
        id="1984Doc/AI-Scribe/issues/6",
    ),
    pytest.param(
        "numpy-1x-module-in-numpy-2",
        "A module that was compiled using NumPy 1.x cannot be run in NumPy 2.0.0 as it may crash. To support both 1.x and 2.x versions of NumPy, modules must be compiled with NumPy 2.0. Some module may need to rebuild instead e.g. with 'pybind11>=2.12'.",
        id="modelscope/FunClip/pull/91",
    ),
    pytest.param(
        "numpy-array-api-not-found", "AttributeError: _ARRAY_API not found", id="agentscope-ai/QwenPaw/issues/437"
    ),
    pytest.param(
        "numpy-array-api-not-found",
        "AttributeError: _ARRAY_API not found\n\nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.4.2 as it may crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.",
        id="agentscope-ai/QwenPaw/issues/437",
    ),
    pytest.param(
        "numpy-dtype-size-changed-binary-incompatibility",
        "ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject",
        id="matterport/Mask_RCNN/issues/3063",
    ),
    pytest.param(
        "numpy-dtype-size-changed-binary-incompatibility",
        "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. Expected 88 from C header, got 80 from PyObject",
        id="scikit-image/scikit-image/issues/5270",
    ),
    pytest.param(
        "flash-attn-undefined-symbol",
        "ImportError: /data/user/qxiao183/xqf/miniconda3/envs/quanllm/lib/python3.10/site-packages/flash_attn_2_cuda.cpython-310-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationENSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE",
        id="Dao-AILab/flash-attention/issues/1691",
    ),
    pytest.param(
        "flash-attn-undefined-symbol",
        'Traceback (most recent call last):\n  File "<stdin>", line 1, in <module>\nImportError: /XXXXX/lib/python3.11/site-packages/flash_attn_2_cuda.cpython-311-x86_64-linux-gnu.so: undefined symbol: _ZN3c104cuda9SetDeviceEi',
        id="Dao-AILab/flash-attention/issues/853",
    ),
    pytest.param(
        "flash-attn-undefined-symbol",
        '"ImportError: <path>/diffusion-pipe-ui/venv/lib/python3.12/site-packages/flash_attn_2_cuda.cpython-312-x86_64-linux-gnu.so: undefined symbol: _ZN3c105ErrorC2ENS_14SourceLocationESs"',
        id="alisson-anjos/diffusion-pipe-ui/issues/48",
    ),
    pytest.param(
        "flash-attn-only-fp16-bf16",
        "RuntimeError: FlashAttention only support fp16 and bf16 data type",
        id="QwenLM/Qwen3/issues/406",
    ),
    pytest.param(
        "flash-attn-only-ampere-or-newer",
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.",
        id="komikndr/raylight/issues/68",
    ),
    pytest.param(
        "flash-attn-only-ampere-or-newer",
        "RuntimeError: FlashAttention only supports Ampere GPUs or newer.\nException raised from mha_fwd at ...\\AppData\\Local\\Temp\\pip-install-onk9dffz\\flash-attn_8c421b15efd44628893dc99fa06535c7\\csrc\\flash_attn\\flash_api.cpp:370 (most recent call first):",
        id="if-ai/ComfyUI-IF_Trellis/issues/40",
    ),
    pytest.param(
        "flash-attn-only-ampere-or-newer",
        "RuntimeError: Error in model execution (input dumped to /tmp/err_execute_model_input_20250111-130939.pkl): FlashAttention only supports Ampere GPUs or newer.",
        id="vllm-project/vllm/issues/8189",
    ),
    pytest.param(
        "bitsandbytes-cuda-setup-failed",
        "`RuntimeError: \n        CUDA Setup failed despite GPU being available. Please run the following command to get more information:\n\n        python -m bitsandbytes\n\n        Inspect the output of the command and see if you can locate CUDA libraries. You might need to add them\n        to your LD_LIBRARY_PATH. If you suspect a bug, please take the information from python -m bitsandbytes\n        and open an issue at: https://github.com/TimDettmers/bitsandbytes/issues`",
        id="tloen/alpaca-lora/issues/540",
    ),
    pytest.param(
        "bitsandbytes-cuda-setup-failed",
        "RuntimeError: \n        CUDA Setup failed despite GPU being available. Inspect the CUDA SETUP outputs above to fix your environment!\n        If you cannot find any issues and suspect a bug, please open an issue with detals about your environment:\n        https://github.com/TimDettmers/bitsandbytes/issues",
        id="bitsandbytes-foundation/bitsandbytes/issues/1522",
    ),
    pytest.param(
        "bitsandbytes-cpu-library-undefined-symbol",
        "AttributeError: /data/home/yaokj5/anaconda3/envs/falcon/lib/python3.10/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cget_col_row_stats",
        id="rmihaylov/falcontune/issues/5",
    ),
    pytest.param(
        "bitsandbytes-cpu-library-undefined-symbol",
        "/home2/xhuang/.conda/envs/llama/lib/python3.9/site-packages/bitsandbytes/libbitsandbytes_cpu.so: undefined symbol: cadam32bit_grad_fp32",
        id="meta-llama/llama-cookbook/issues/159",
    ),
    pytest.param(
        "tokenizers-untagged-enum-no-variant",
        "This resolves `Exception: data did not match any variant of untagged enum ModelWrapper ...` for me, too! It seems like some saving error?",
        id="unslothai/unsloth/issues/1059",
    ),
    pytest.param(
        "tokenizers-untagged-enum-no-variant",
        "data did not match any variant of untagged enum PyPreTokenizerTypeWrapper at line 960 column 3",
        id="ZHO-ZHO-ZHO/ComfyUI-UltraEdit-ZHO/issues/13",
    ),
    pytest.param(
        "tokenizers-untagged-enum-no-variant",
        "`Exception: data did not match any variant of untagged enum ModelWrapper at line 1251012 column 3`",
        id="allenai/open-instruct/issues/738",
    ),
    pytest.param(
        "tokenizers-untagged-enum-no-variant",
        " tokenizer = Tokenizer.from_file(str(tokenizer_path))\nException: data did not match any variant of untagged enum PyNormalizerTypeWrapper at line 49 column 3",
        id="dleemiller/WordLlama/issues/16",
    ),
    pytest.param(
        "safetensors-header-too-large",
        '  File "E:\\software\\oms-Diffusion\\garment_adapter\\garment_diffusion.py", line 23, in __init__\n    with safe_open(ref_path, framework="pt", device="cpu") as f:\nsafetensors_rust.SafetensorError: Error while deserializing header: HeaderTooLarge',
        id="ShineChen1024/MagicClothing/issues/11",
    ),
    pytest.param(
        "safetensors-header-too-large",
        "safetensors_rust.SafetensorError: Error while deserializing header: header too large",
        id="jingyaogong/minimind-v/issues/117",
    ),
    pytest.param(
        "safetensors-error-deserializing-header",
        "Error while deserializing header: HeaderTooSmall",
        id="MoonRide303/Fooocus-MRE/issues/191",
    ),
    pytest.param(
        "safetensors-error-deserializing-header",
        "[Bug]: Error while deserializing header: InvalidHeaderDeserialization",
        id="vllm-project/vllm/issues/14596",
    ),
    pytest.param(
        "nccl-watchdog-collective-timeout",
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, Timeout(ms)=600000) ran for 600004 milliseconds before timing out.",
        id="hiyouga/LlamaFactory/issues/7396",
    ),
    pytest.param(
        "nccl-error-in-process-group",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1333, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1",
        id="vllm-project/vllm/issues/10523",
    ),
    pytest.param(
        "nccl-error-in-process-group",
        "torch.distributed.DistBackendError: NCCL error in: ../torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp:1691, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.19.3 ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.",
        id="zai-org/CogVLM2/issues/178",
    ),
    pytest.param(
        "torchrun-child-failed-error",
        "------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-03-05_07:01:51\n  host      : vmnuvocinpoc.internal.cloudapp.net\n  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 69811)\n  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n============================================================",
        id="pytorch/pytorch/issues/121209",
    ),
    pytest.param(
        "torchrun-worker-killed-sigkill",
        'E0325 20:57:27.620000 2606 site-packages/torch/distributed/elastic/multiprocessing/api.py:869] failed (exitcode: -9) local_rank: 5 (pid: 2630) of binary: /root/miniconda3/bin/python\nTraceback (most recent call last):\n  File "/root/miniconda3/lib/python3.12/site-packages/torch/distributed/launcher/api.py", line 269, in launch_agent\n    raise ChildFailedError(\ntorch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n=====================================================\ntest.py FAILED\n-----------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n--------------------------------------------',
        id="lmzpai/roboMamba/issues/10",
    ),
    pytest.param(
        "torchrun-worker-killed-sigkill",
        "> WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 484384 closing signal SIGTERM\n> ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: -9) local_rank: 0 (pid: 484375) of binary: /mnt/petrelfs/xinglong/anaconda3/envs/muffin/bin/pytho",
        id="RLHF-V/RLHF-V/issues/11",
    ),
    pytest.param(
        "torchrun-worker-killed-sigkill",
        "[2023-10-13 17:40:02,544] torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 62498) of binary: /home/znr/miniconda3/envs/llama/bin/python",
        id="meta-llama/llama/issues/856",
    ),
    pytest.param(
        "torch-cpu-allocator-cannot-allocate-memory",
        "RuntimeError: [enforce fail at alloc_cpu.cpp:73] . DefaultCPUAllocator: can't allocate memory: you tried to allocate 116813856768 bytes. Error code 12 (Cannot allocate memory)",
        id="JingyunLiang/VRT/issues/49",
    ),
    pytest.param(
        "torch-cpu-allocator-cannot-allocate-memory",
        "RuntimeError: [enforce fail at C:\\b\\abs_bao0hdcrdh\\croot\\pytorch_1675190257512\\work\\c10\\core\\impl\\alloc_cpu.cpp:81] data. DefaultCPUAllocator: not enough memory: you tried to allocate 1981808640 bytes.",
        id="MaximeVandegar/Papers-in-100-Lines-of-Code/issues/10",
    ),
    pytest.param(
        "torch-cannot-copy-out-of-meta-tensor",
        "NotImplementedError: Cannot copy out of meta tensor; no data!",
        id="hiyouga/LlamaFactory/issues/3062",
    ),
    pytest.param(
        "torch-cannot-copy-out-of-meta-tensor",
        "llama_pro训练Llama-3.2-1B-Instruct NotImplementedError: Cannot copy out of meta tensor; no data!",
        id="hiyouga/LlamaFactory/issues/6812",
    ),
    pytest.param(
        "torch-attempting-to-unscale-fp16-gradients",
        "Issue:   ValueError: Attempting to unscale FP16 gradients",
        id="haotian-liu/LLaVA/issues/363",
    ),
    pytest.param(
        "torch-attempting-to-unscale-fp16-gradients",
        '"ValueError: Attempting to unscale FP16 gradients."',
        id="oobabooga/textgen/issues/3240",
    ),
    pytest.param(
        "torch-multinomial-probability-inf-nan",
        '  File "/home/azureuser/lit-llama/generate.py", line 74, in generate\n    idx_next = torch.multinomial(probs, num_samples=1).to(dtype=dtype)\nRuntimeError: probability tensor contains either `inf`, `nan` or element < 0',
        id="Lightning-AI/lit-llama/issues/467",
    ),
    pytest.param(
        "torch-multinomial-probability-inf-nan",
        'I have encountered a problem "RuntimeError: probability tensor contains either `inf`, `nan` or element < 0".',
        id="haotian-liu/LLaVA/issues/726",
    ),
    pytest.param(
        "torch-multinomial-probability-inf-nan",
        "[BUG] RuntimeError: probability tensor contains either inf, nan or element < 0",
        id="QwenLM/Qwen/issues/848",
    ),
    pytest.param(
        "torch-inplace-operation-modified-variable",
        "RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.cuda.FloatTensor [27, 32]], which is output 0 of ReluBackward0, is at version 1; expected version 0 instead. Hint: the backtrace further above shows the operation that failed to compute its gradient. The variable in question was changed in there or anywhere later. Good luck!",
        id="ziqi92/Modof/issues/5",
    ),
    pytest.param(
        "torch-inplace-operation-modified-variable",
        "RuntimeError: one of the variables needed for gradient computation has been modified by an inplace operation: [torch.cuda.FloatTensor [10, 49]], which is output 0 of SubBackward0, is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True).",
        id="JDAI-CV/LIO/issues/9",
    ),
    pytest.param(
        "vllm-bfloat16-needs-compute-capability-8",
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla V100-SXM2-32GB GPU has compute capability 7.0.",
        id="vllm-project/vllm/issues/946",
    ),
    pytest.param(
        "vllm-bfloat16-needs-compute-capability-8",
        "ValueError: Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla T4 GPU has compute capability 7.5.",
        id="vllm-project/vllm/issues/1157",
    ),
    pytest.param(
        "vllm-max-seq-len-larger-than-kv-cache",
        " raise ValueError(\nValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be stored in KV cache (7344). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
        id="QwenLM/Qwen3/issues/295",
    ),
    pytest.param(
        "vllm-max-seq-len-larger-than-kv-cache",
        "# GPU blocks: 1478, # CPU blocks: 2048\nMaximum concurrency for 29000 tokens per request: 0.82x\nThe model's max seq len (29000) is larger than the maximum number of tokens that can be stored in KV cache (23648). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine.",
        id="vllm-project/vllm/issues/10517",
    ),
    pytest.param(
        "vllm-model-architectures-not-supported",
        "ValueError: Model architectures ['Qwen2ForSequenceClassification'] are not supported for no",
        id="vllm-project/vllm/issues/10990",
    ),
    pytest.param(
        "vllm-model-architectures-not-supported",
        "[Usage]: ValueError: Model architectures ['LlamaForCausalLM'] are not supported for now.",
        id="vllm-project/vllm/issues/9713",
    ),
    pytest.param(
        "accelerate-8bit-model-on-other-device",
        "ValueError: You can't train a model that has been loaded in 8-bit precision on a different device than the one you're training on.",
        id="hiyouga/LlamaFactory/issues/9",
    ),
    pytest.param(
        "accelerate-8bit-model-on-other-device",
        "ValueError: You can't train a model that has been loaded in 8-bit precision on multiple devices.",
        id="huggingface/peft/issues/414",
    ),
    pytest.param(
        "torch-distributed-server-socket-address-in-use",
        "RuntimeError: The server socket has failed to listen on any local network address. The server socket has failed to bind to [::]:29500 (errno: 98 - Address already in use). The server socket has failed to bind to 0.0.0.0:29500 (errno: 98 - Address already in use).",
        id="showlab/Tune-A-Video/issues/90",
    ),
    pytest.param(
        "torch-distributed-server-socket-address-in-use",
        "RuntimeError: The server socket has failed to listen on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, message: address already in use.",
        id="om-ai-lab/VLM-R1/issues/289",
    ),
    pytest.param(
        "numpy-core-multiarray-failed-to-import",
        '  File "D:\\facealign\\FaceTools-master\\aligment.py", line 8, in <module>\n    import cv2\nImportError: numpy.core.multiarray failed to import',
        id="chenriwei/FaceTools/issues/10",
    ),
    pytest.param(
        "numpy-core-multiarray-failed-to-import",
        '  File "cv2\\__init__.py", line 5, in <module>\nImportError: numpy.core.multiarray failed to import"',
        id="st4inl3s5/kizagan/issues/3",
    ),
    pytest.param(
        "numpy-core-multiarray-failed-to-import",
        "直接使用pip install下载requiresments.txt后导包出现ImportError: numpy._core.multiarray failed to import",
        id="lazydog28/mc_auto_boss/issues/87",
    ),
    pytest.param(
        "flash-attn-only-fp16-bf16",
        "    out, softmax_lse, S_dmask, rng_state = flash_attn_gpu.fwd(\nRuntimeError: [address=0.0.0.0:37093, pid=1304] FlashAttention only support fp16 and bf16 data type",
        id="xorbitsai/inference/issues/3770",
    ),
    pytest.param(
        "torchrun-child-failed-error",
        "llama_fc/lib/python3.10/site-packages/llamafactory/launcher.py FAILED\n------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n  time      : 2025-02-21_20:07:38\n  host      : iZl4v544jr5cejwaqci3xvZ\n  rank      : 0 (local_rank: 0)\n  exitcode  : 1 (pid: 14661)\n  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html",
        id="hiyouga/LlamaFactory/issues/7032",
    ),
    pytest.param(
        "nccl-watchdog-collective-timeout",
        "[BUG] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for 600013 milliseconds before timing out.",
        id="NVIDIA/Megatron-LM/issues/1207",
    ),
    pytest.param(
        "nccl-watchdog-collective-timeout",
        "Watchdog caught collective operation timeout: WorkNCCL(SeqNum=49, OpType=ALLREDUCE, Timeout(ms)=18000000) ran for 18005607 milliseconds before timing out.",
        id="agiresearch/InstructGLM/issues/3",
    ),
    pytest.param(
        "flash-attn-only-fp16-bf16",
        'Traceback (most recent call last):\n    miniconda3/envs/inspiremusic/lib/python3.8/site-packages/flash_attn/flash_attn_interface.py", line 52, in _flash_attn_forward\n    out, q, k, v, out_padded, softmax_lse, S_dmask, rng_state = flash_attn_cuda.fwd(\n\nRuntimeError: FlashAttention only support fp16 and bf16 data type`',
        id="QwenAudio/FunMusic/issues/18",
    ),
    pytest.param(
        "torch-load-state-dict-size-mismatch",
        'Traceback (most recent call last):\n  File "/data/app/FastChat/fastChat/train/train.py", line 335, in <module>\n    train()\n  File "/data/app/FastChat/fastChat/train/train.py", line 328, in train\n    trainer.train(resume_from_checkpoint=True)\n  File "/data/app/install/transformers/src/transformers/trainer.py", line 1651, in train\n    self._load_from_checkpoint(resume_from_checkpoint)\n  File "/data/app/install/transformers/src/transformers/trainer.py", line 2159, in _load_from_checkpoint\n    load_result = model.load_state_dict(state_dict, False)\n  File "/usr/local/lib/python3.10/dist-packages/torch/nn/modules/module.py", line 2041, in load_state_dict\n    raise RuntimeError(\'Error(s) in loading state_dict for {}:\\n\\t{}\'.format(\nRuntimeError: Error(s) in loading state_dict for LlamaForCausalLM:\n\tsize mismatch for model.embed_tokens.weight: copying a param with shape torch.Size([32001, 4096]) from checkpoint, the shape in current model is torch.Size([32000, 4096]).\n\tsize mismatch for lm_head.weight: copying a param with shape torch.Size([32001, 4096]) from checkpoint, the shape in current model is torch.Size([32000, 4096]).\nERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 6660) of binary: /usr/bin/python3',
        id="lm-sys/FastChat/issues/575",
    ),
    pytest.param(
        "torch-load-state-dict-size-mismatch",
        "RuntimeError: Error(s) in loading state_dict for TORCHIEKF:\n        size mismatch for mes_net.cov_net.4.weight: copying a param with shape torch.Size([64, 32, 5]) from checkpoint, the shape in current model is torch.Size([32, 32, 5]).\n        size mismatch for mes_net.cov_net.4.bias: copying a param with shape torch.Size([64]) from checkpoint, the shape in current model is torch.Size([32]).",
        id="mbrossar/ai-imu-dr/issues/75",
    ),
    pytest.param(
        "vllm-gpu-compute-capability-below-7",
        "Bfloat16 is only supported on GPUs with compute capability of at least 8.0. Your Tesla P100-PCIE-16GB GPU has compute capability 6.0.\nRuntimeError: GPUs with compute capability below 7.0 are not supported.",
        id="vllm-project/vllm/issues/1284",
    ),
    pytest.param(
        "vllm-gpu-compute-capability-below-7",
        "RuntimeError: GPUs with compute capability less than 7.0 are not supported.",
        id="vllm-project/vllm/issues/463",
    ),
    pytest.param(
        "torchrun-child-failed-error",
        '  File "/bjzhyai03/workhome/chenhaotian/miniconda3/envs/llmfactory/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 134, in __call__\n    return launch_agent(self._config, self._entrypoint, list(args))\n           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n  File "/bjzhyai03/workhome/chenhaotian/miniconda3/envs/llmfactory/lib/python3.11/site-packages/torch/distributed/launcher/api.py", line 250, in launch_agent\n    raise ChildFailedError(\ntorch.distributed.elastic.multiprocessing.errors.ChildFailedError: \n============================================================\n/bjzhyai03/workhome/songzijun/LLaMA-Factory-main/src/llamafactory/launcher.py FAILED\n------------------------------------------------------------\nFailures:\n  <NO_OTHER_FAILURES>\n------------------------------------------------------------\nRoot Cause (first observed failure):\n[0]:\n  time      : 2024-11-15_05:50:46\n  host      : 11d9s69blu6kn-0\n  rank      : 1 (local_rank: 1)\n  exitcode  : 1 (pid: 18572)\n  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n============================================================',
        id="hiyouga/LlamaFactory/issues/6040",
    ),
    pytest.param(
        "flash-attn-no-module-named",
        "  File \"/home/lwx/bev/bevfusion/mmdet3d/models/backbones/radar_encoder.py\", line 18, in <module>\n    from flash_attn.flash_attention import FlashMHA\nModuleNotFoundError: No module named 'flash_attn'",
        id="mit-han-lab/bevfusion/issues/492",
    ),
    pytest.param(
        "flash-attn-no-module-named",
        '  File "<ipython-input-15-7cccac35350c>", line 1, in <module>\n    from flash_attn.flash_attention import FlashAttention\n  File "/home/hwtan/pycharm/pycharm-community-2023.2.4/plugins/python-ce/helpers/pydev/_pydev_bundle/pydev_import_hook.py", line 21, in do_import\n    module = self._system_import(name, *args, **kwargs)\nModuleNotFoundError: No module named \'flash_attn.flash_attention\'',
        id="Dao-AILab/flash-attention/issues/739",
    ),
    pytest.param(
        "flash-attn-no-module-named",
        "  File \"/opt/venv/lib/python3.10/site-packages/xformers/ops/fmha/triton.py\", line 17, in <module>\n    from flash_attn.flash_attn_triton import (\nModuleNotFoundError: No module named 'flash_attn'",
        id="facebookresearch/xformers/issues/826",
    ),
    pytest.param(
        "torch-cuda-invalid-device-ordinal",
        "RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some other API call,so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.",
        id="wdrink/PyDeepFakeDet/issues/1",
    ),
    pytest.param(
        "torch-cuda-invalid-device-ordinal",
        "RuntimeError: CUDA error: invalid device ordinal\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be \nincorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1.\nCompile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.",
        id="yuanzhoulvpi2017/DocumentSearch/issues/4",
    ),
    pytest.param(
        "torch-found-no-nvidia-driver",
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
        id="facebookresearch/pytorch3d/issues/1259",
    ),
    pytest.param(
        "torch-found-no-nvidia-driver",
        "您好，我正在使用Endovis or SCARED进行evaluation，在evaluate_depth.py的evaluate(options.parse())和encoder.cuda()出现了报错信息：RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx",
        id="ShuweiShao/AF-SfMLearner/issues/39",
    ),
    pytest.param(
        "torch-found-no-nvidia-driver",
        "RuntimeError: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx\n\nI checked the NVIDIA GPU is installed.",
        id="princeton-nlp/SimCSE/issues/244",
    ),
    pytest.param(
        "torch-cuda-driver-insufficient-for-runtime",
        "RuntimeError: CUDA error: CUDA driver version is insufficient for CUDA runtime version",
        id="nagadomi/nunif/issues/702",
    ),
    pytest.param(
        "torch-cuda-driver-insufficient-for-runtime",
        '  File "/opt/conda/lib/python3.6/site-packages/torch/cuda/__init__.py", line 264, in set_device\n    torch._C._cuda_setDevice(device)\nRuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /pytorch/torch/csrc/cuda/Module.cpp:34',
        id="mlcommons/inference/issues/54",
    ),
    pytest.param(
        "torch-cuda-driver-insufficient-for-runtime",
        "> RuntimeError: cuda runtime error (35) : CUDA driver version is insufficient for CUDA runtime version at /opt/conda/conda-bld/pytorch_1524586445097/work/aten/src/THC/THCGeneral.cpp:70",
        id="BobLiu20/YOLOv3_PyTorch/issues/12",
    ),
    pytest.param(
        "torch-cudnn-status-not-initialized",
        "    return F.conv2d(input, weight, bias, self.stride,\nRuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED",
        id="deepseek-ai/DeepSeek-VL/issues/30",
    ),
    pytest.param(
        "torch-cudnn-status-not-initialized",
        "RuntimeError: cuDNN error: CUDNN_STATUS_NOT_INITIALIZED\ncuda9.0 pytorch1.1.0 python3.6.2",
        id="jfzhang95/pytorch-deeplab-xception/issues/174",
    ),
    pytest.param(
        "torch-embedding-index-out-of-range",
        "IndexError: index out of range in self",
        id="DEEP-PolyU/KEQA_WSDM19/issues/26",
    ),
    pytest.param(
        "torch-embedding-index-out-of-range",
        "IndexError: index out of range in self",
        id="allenai/longformer/issues/187",
    ),
    pytest.param(
        "torch-tensor-size-mismatch-at-dimension",
        "RuntimeError: The size of tensor a (150) must match the size of tensor b (152) at non-singleton dimension 3",
        id="jiwei0921/DMRA/issues/5",
    ),
    pytest.param(
        "torch-tensor-size-mismatch-at-dimension",
        "RuntimeError: The size of tensor a (16) must match the size of tensor b (10) at non-singleton dimension 1",
        id="gram-ai/capsule-networks/issues/28",
    ),
    pytest.param(
        "torch-tensor-size-mismatch-at-dimension",
        "RuntimeError: The size of tensor a (4015) must match the size of tensor b (8030) at non-singleton dimension 1",
        id="philipy1219/ComfyUI-TaylorSeer/issues/22",
    ),
    pytest.param(
        "torch-load-weights-only-failed",
        "_pickle.UnpicklingError: Weights only load failed. In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\nPlease file an issue with the following so that we can make `weights_only=True` compatible with your use case: WeightsUnpickler error: Unsupported operand 118\n\nCheck the documentation of torch.load to learn more about types accepted by default with weights_only https://pytorch.org/docs/stable/generated/torch.load.html.",
        id="pytorch/pytorch/issues/150998",
    ),
    pytest.param(
        "torch-load-weights-only-failed",
        "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options \n\t(1) Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n\t(2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n\tWeightsUnpickler error: Unsupported global: GLOBAL pytorch_lightning.callbacks.model_checkpoint.ModelCheckpoint was not an allowed global by default. Please use `torch.serialization.add_safe_globals([ModelCheckpoint])` to allowlist this global if you trust this class/function.",
        id="fudan-generative-vision/champ/issues/144",
    ),
    pytest.param(
        "torch-load-weights-only-failed",
        "_pickle.UnpicklingError: Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if you trust the source of the checkpoint.\n        (1) In PyTorch 2.6, we changed the default value of the `weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file from a trusted source.\n        (2) Alternatively, to load with `weights_only=True` please check the recommended steps in the following error message.\n        WeightsUnpickler error: Unsupported global: GLOBAL utils.HParams was not an allowed global by default. Please use `torch.serialization.add_safe_globals([HParams])` or the `torch.serialization.safe_globals([HParams])` context manager to allowlist this global if you trust this class/function.",
        id="0Xiaohei0/LocalAIVtuber/issues/51",
    ),
    pytest.param(
        "torch-tensor-from-ragged-sequences",
        "ValueError: expected sequence of length 517 at dim 1 (got 512)",
        id="lonePatient/BERT-NER-Pytorch/issues/97",
    ),
    pytest.param(
        "torch-tensor-from-ragged-sequences",
        "ValueError: expected sequence of length 303 at dim 1 (got 304)",
        id="DefuLi/Emotional-Analysis-Transformers2.0-Bert/issues/2",
    ),
    pytest.param(
        "torch-tensor-from-ragged-sequences",
        "ValueError: expected sequence of length 80 at dim 1 (got 81)",
        id="songyouwei/ABSA-PyTorch/issues/114",
    ),
    pytest.param(
        "torch-loss-batch-size-mismatch",
        "ValueError: Expected input batch_size (60) to match target batch_size (10).",
        id="pytorch/pytorch/issues/139031",
    ),
    pytest.param(
        "torch-loss-batch-size-mismatch",
        "ValueError: Expected input batch_size (4) to match target batch_size (1).",
        id="xinge008/Cylinder3D/issues/128",
    ),
    pytest.param(
        "torch-loss-batch-size-mismatch",
        "ValueError: Expected input batch_size (1216) to match target batch_size (1280)",
        id="gauthierdmn/question_generation/issues/4",
    ),
    pytest.param(
        "tokenizers-truncation-sequence-too-short",
        "1. Send a long question together with whatever context that would require truncation.\n2. See: Exception: Truncation error: Sequence to truncate too short to respect the provided max_length",
        id="huggingface/transformers/issues/23654",
    ),
    pytest.param(
        "tokenizers-truncation-sequence-too-short",
        "RoBERTa: Truncation error: Sequence to truncate too short to respect the provided max_length",
        id="huggingface/transformers/issues/12880",
    ),
    pytest.param(
        "importlib-package-metadata-not-found",
        '[rank3]:   File "/home/ps/AI/projects/llama_factory_env124/lib/python3.11/site-packages/transformers/utils/versions.py", line 102, in require_version\n[rank3]:     got_ver = importlib.metadata.version(pkg)\n[rank3]:   File "/usr/lib/python3.11/importlib/metadata/__init__.py", line 565, in from_name\n[rank3]:     raise PackageNotFoundError(name)\n[rank3]: importlib.metadata.PackageNotFoundError: No package metadata was found for auto_gptq',
        id="hiyouga/LlamaFactory/issues/5313",
    ),
    pytest.param(
        "importlib-package-metadata-not-found",
        "- **Exception Type:** importlib.metadata.PackageNotFoundError\n- **Exception Message:** No package metadata was found for bitsandbytes",
        id="Comfy-Org/ComfyUI/issues/7756",
    ),
    pytest.param(
        "importlib-package-metadata-not-found",
        '!!! Exception during processing !!! No package metadata was found for bitsandbytes\nTraceback (most recent call last):\n  File "importlib\\metadata\\__init__.py", line 407, in from_name\nStopIteration',
        id="Lightricks/ComfyUI-LTXVideo/issues/354",
    ),
    pytest.param(
        "importlib-package-metadata-not-found",
        "importlib.metadata.PackageNotFoundError: No package metadata was found for auto-gptq",
        id="FreedomIntelligence/HuatuoGPT-II/issues/11",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "ImportError: cannot import name 'Qwen2_5_VLForConditionalGeneration' from 'transformers' (/root/miniconda3/envs/llama_factory/lib/python3.11/site-packages/transformers/__init__.py)",
        id="QwenLM/Qwen3-VL/issues/723",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "ImportError: cannot import name 'Qwen3VLForConditionalGeneration' from 'transformers' (/home/newai/test/lib/python3.10/site-packages/transformers/__init__.py)",
        id="Granddyser/qwen3-vl-comfy-ui/issues/2",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "---> 23 from transformers import (\n     24     AutoModelForCausalLM,\n     25     AutoModelForMaskedLM,\n\nImportError: cannot import name 'AutoModelForVision2Seq' from 'transformers' (/usr/local/lib/python3.12/dist-packages/transformers/__init__.py)",
        id="kanishkamisra/minicons/issues/94",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nImportError: cannot import name 'HybridCache' from 'transformers' (/opt/conda/envs/python3.10.13/lib/python3.10/site-packages/transformers/__init__.py)",
        id="huggingface/transformers/issues/44351",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "  File \"/home/eito/AIExperiments/LlamaGym/myenv/lib/python3.10/site-packages/trl/core.py\", line 25, in <module>\n    from transformers import top_k_top_p_filtering\nImportError: cannot import name 'top_k_top_p_filtering' from 'transformers' (/home/eito/AIExperiments/LlamaGym/myenv/lib/python3.10/site-packages/transformers/__init__.py)",
        id="KhoomeiK/LlamaGym/issues/9",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "  File \"colbert/training/training.py\", line 7, in <module>\n    from transformers import AdamW, get_linear_schedule_with_warmup\nImportError: cannot import name 'AdamW' from 'transformers' (transformers/__init__.py)",
        id="stanford-futuredata/ColBERT/issues/397",
    ),
    pytest.param(
        "transformers-cannot-import-name",
        "File \"<stdin>\", line 1, in <module>\nImportError: cannot import name 'pipeline' from 'transformers' (unknown location)",
        id="huggingface/transformers/issues/9939",
    ),
    pytest.param(
        "transformers-load-in-8bit-unexpected-keyword",
        "FAILED tests/test_peft_models.py::TestPeftModel::test_create_bnb_peft_model_from_config - TypeError: Qwen2ForCausalLM.__init__() got an unexpected keyword argument 'load_in_8bit'",
        id="huggingface/trl/pull/4262",
    ),
    pytest.param(
        "transformers-load-in-8bit-unexpected-keyword",
        "  File \"/disk1/srahnamoon/llm/.lvenv/lib/python3.8/site-packages/transformers/modeling_utils.py\", line 2113, in from_pretrained\n    model = cls(config, *model_args, **model_kwargs)\nTypeError: __init__() got an unexpected keyword argument 'load_in_8bit'",
        id="huggingface/transformers-bloom-inference/issues/3",
    ),
    pytest.param(
        "transformers-load-in-8bit-unexpected-keyword",
        "  File \"/root/anaconda3/envs/cuda_test2/lib/python3.9/site-packages/transformers/modeling_utils.py\", line 2611, in from_pretrained\n    model = cls(config, *model_args, **model_kwargs)\nTypeError: __init__() got an unexpected keyword argument 'load_in_4bit'",
        id="hyperonym/basaran/issues/227",
    ),
    pytest.param(
        "transformers-load-in-8bit-unexpected-keyword",
        "TypeError: GPTBigCodeForCausalLM.__init__() got an unexpected keyword argument 'load_in_4bit'",
        id="artidoro/qlora/issues/121",
    ),
    pytest.param(
        "transformers-dynamic-cache-removed-attribute",
        "-> 1330                 max_cache_length = past_key_values.get_max_length()\n   1331             else:\n   1332                 cache_length = past_length = past_key_values[0][0].shape[2]\n\nAttributeError: 'DynamicCache' object has no attribute 'get_max_length'",
        id="OS-Copilot/OS-Atlas/issues/57",
    ),
    pytest.param(
        "transformers-dynamic-cache-removed-attribute",
        "AttributeError: 'DynamicCache' object has no attribute 'get_max_length'. Did you mean: 'get_seq_length'?",
        id="deepseek-ai/DeepSeek-Coder-V2/issues/81",
    ),
    pytest.param(
        "transformers-dynamic-cache-removed-attribute",
        "[rank2]: max_cache_length = past_key_values.get_max_length() [rank2]: ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ [rank2]: AttributeError: 'DynamicCache' object has no attribute 'get_max_length'. Did you mean:",
        id="hiyouga/LlamaFactory/issues/8048",
    ),
    pytest.param(
        "transformers-dynamic-cache-removed-attribute",
        "!!! Exception during processing !!! 'DynamicCache' object has no attribute 'seen_tokens'",
        id="Comfy-Org/ComfyUI/issues/9691",
    ),
]


def test_every_record_has_at_least_two_real_messages() -> None:
    counts = {slug: 0 for slug in by_slug()}
    for param in REAL_MESSAGES:
        counts[str(param.values[0])] += 1
    assert not [slug for slug, count in counts.items() if count < 2]


@pytest.mark.parametrize(("slug", "text"), REAL_MESSAGES)
def test_real_message_is_answered_with_its_record_first(slug: str, text: str) -> None:
    result = shipped_matcher().match(text)
    assert result.status in ("matched", "ambiguous"), result.status
    assert result.matches[0].id == by_slug()[slug].id, [m.error_message[:60] for m in result.matches]


@pytest.mark.parametrize(
    ("slug", "text"),
    [
        # Another keyword argument, another library's name, another object, another missing-package error.
        (
            "transformers-load-in-8bit-unexpected-keyword",
            "TypeError: Trainer.__init__() got an unexpected keyword argument 'tokenizer'",
        ),
        (
            "transformers-cannot-import-name",
            "ImportError: cannot import name 'cached_download' from 'huggingface_hub' (/usr/lib/python3/site-packages/huggingface_hub/__init__.py)",
        ),
        (
            "transformers-cannot-import-name",
            "ImportError: cannot import name 'soft_unicode' from 'markupsafe' (/opt/venv/lib/python3.10/site-packages/markupsafe/__init__.py)",
        ),
        (
            "transformers-dynamic-cache-removed-attribute",
            "AttributeError: 'NoneType' object has no attribute 'get_max_length'",
        ),
        (
            "transformers-dynamic-cache-removed-attribute",
            "AttributeError: 'HybridCache' object has no attribute 'float'",
        ),
        ("importlib-package-metadata-not-found", "ModuleNotFoundError: No module named 'bitsandbytes'"),
        ("tokenizers-truncation-sequence-too-short", "Exception: Truncation error: Second sequence not provided"),
    ],
)
def test_a_like_message_of_another_cause_is_not_answered_with_the_record(slug: str, text: str) -> None:
    result = shipped_matcher().match(text)
    assert by_slug()[slug].id not in [m.id for m in result.matches[:1]], result.status
