"""The engine adapters reach into llama-cpp-python and faster-whisper beyond their documented APIs.
Those libraries are pinned exactly, and an upgrade that moves a name they use fails when the model
loads, with a message that names it (models/internals.py)."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path
from types import SimpleNamespace

import pytest

from models import ModelError
from models.asr import FASTER_WHISPER_PINNED, check_whisper_internals
from models.internals import missing_attributes
from models.llm_local import LLAMA_CPP_PINNED, check_llama_internals, no_amx_repacking

ROOT = Path(__file__).resolve().parent.parent


def pins() -> dict[str, str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    exact = (re.fullmatch(r"([\w.-]+)==([\w.]+)", d) for d in deps)
    return dict(m.groups() for m in exact if m)


@pytest.mark.parametrize("distribution,pinned", [("llama-cpp-python", LLAMA_CPP_PINNED),
                                                 ("faster-whisper", FASTER_WHISPER_PINNED)])
def test_the_libraries_whose_internals_are_used_are_pinned_exactly_to_what_the_adapter_was_written_for(
        distribution, pinned):
    assert pins()[distribution] == pinned
    assert metadata.version(distribution) == pinned


def test_the_loaded_engines_have_every_internal_their_adapters_use(engines):
    import faster_whisper
    import faster_whisper.audio  # noqa: F401
    import faster_whisper.tokenizer  # noqa: F401
    import faster_whisper.transcribe  # noqa: F401
    import llama_cpp

    check_llama_internals(engines.llm._llm, llama_cpp)
    check_whisper_internals(engines.asr._model, faster_whisper)


def test_dotted_paths_are_followed():
    root = SimpleNamespace(_ctx=SimpleNamespace(ctx=1), n_tokens=0)
    assert missing_attributes(root, ["_ctx.ctx", "n_tokens"]) == []
    assert missing_attributes(root, ["_ctx.model", "input_ids", "n_tokens"]) == ["_ctx.model", "input_ids"]


def test_an_upgrade_that_moved_an_internal_fails_with_its_name_and_the_pinned_version():
    import llama_cpp

    moved = SimpleNamespace(input_ids=[], n_tokens=0, _requires_eval=True, _ctx=SimpleNamespace(ctx=None),
                            eval=None, metadata={}, chat_format="", chat_handler=None)  # no _sampler
    with pytest.raises(ModelError) as raised:
        check_llama_internals(moved, llama_cpp)
    message = str(raised.value)
    assert "Llama._sampler" in message and LLAMA_CPP_PINNED in message and "models/llm_local.py" in message
    assert "\n" not in message


@pytest.mark.parametrize("amx", [True, False])
def test_a_build_with_amx_kernels_loads_models_with_no_weights_repacked_for_them(amx):
    """llama.cpp's AMX kernels segfaulted at a model's first evaluation on a Xeon here
    (ggml-org/llama.cpp#20824); a build without them keeps the library's default."""
    import llama_cpp

    info = "CPU : AVX2 = 1 | AVX512 = 1 | " + ("AMX_INT8 = 1 | " if amx else "") + "REPACK = 1 | "
    build = SimpleNamespace(llama_print_system_info=lambda: info.encode(), llama_cpp=llama_cpp.llama_cpp)
    default = llama_cpp.llama_cpp.llama_model_default_params
    with no_amx_repacking(build):
        assert llama_cpp.llama_cpp.llama_model_default_params().use_extra_bufts is not amx
    assert llama_cpp.llama_cpp.llama_model_default_params is default and default().use_extra_bufts
