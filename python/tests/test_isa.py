"""The instruction sets: what the build has, what runs, and forcing one."""
import re

import pytest

import simdcollide as sc
import simdcollide.reference  # noqa: F401  (importable as a module, not only an attribute)


def test_version_is_the_librarys():
    assert re.fullmatch(r"\d+\.\d+\.\d+", sc.__version__)


def test_compiled_and_supported_sets():
    compiled = sc.compiled_isas()
    assert compiled[0] == "reference"
    supported = sc.supported_isas()
    assert supported[0] == "reference"
    assert set(supported) <= set(compiled)
    assert sc.best_isa() == supported[-1]
    assert sc.lane_count("reference") == 1


def test_set_isa_forces_and_reset_forgets():
    for name in sc.supported_isas():
        sc.set_isa(name)
        assert sc.active_isa() == name
    sc.reset_isa()
    assert sc.active_isa() in sc.supported_isas()


def test_unknown_and_unavailable_sets_are_refused():
    before = sc.active_isa()
    with pytest.raises(ValueError, match="unknown instruction set 'avx9'"):
        sc.set_isa("avx9")
    missing = [n for n in ("sse2", "avx2", "avx512", "neon") if n not in sc.supported_isas()]
    for name in missing:
        with pytest.raises(sc.IsaUnavailable):
            sc.set_isa(name)
        assert issubclass(sc.IsaUnavailable, RuntimeError)
    assert sc.active_isa() == before
