"""Shared fixtures: where the command-line tools are, Hypothesis' settings."""
import os
import pathlib
import sys

import pytest
from hypothesis import HealthCheck, settings

sys.path.insert(0, os.path.dirname(__file__))  # reference.py

settings.register_profile("csum", deadline=None, max_examples=300,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("csum")

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _tool(env: str, name: str):
    """The tool named by the environment (python/run_tests.sh sets it), else build/NAME."""
    path = os.environ.get(env) or str(ROOT / "build" / name)
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else None


@pytest.fixture(scope="session")
def csum_cli():
    path = _tool("CSUM_CLI", "csum")
    if not path:
        pytest.skip("SKIPPED LOUDLY: the csum command-line tool is not built (make, or set "
                    "CSUM_CLI): cannot compare csum.pcap with `csum pcap verify --json`")
    return path


@pytest.fixture(scope="session")
def pcap_corpus(tmp_path_factory):
    gen = _tool("CSUM_PCAPGEN", "csum-pcapgen")
    if not gen:
        pytest.skip("SKIPPED LOUDLY: csum-pcapgen is not built (make, or set CSUM_PCAPGEN): "
                    "no captures to compare csum.pcap with the CLI on")
    import subprocess
    d = tmp_path_factory.mktemp("pcapgen")
    subprocess.run([gen, str(d)], check=True)
    manifest = [line.split() for line in (d / "MANIFEST").read_text().splitlines() if line.strip()]
    return {"dir": d, "gen": gen, "manifest": manifest}
