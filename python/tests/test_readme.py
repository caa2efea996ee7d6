"""The README's Python example runs as it is written."""
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_python_example_runs(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], str(README), "exec"), {})
    low, high = (float(v) for v in capsys.readouterr().out.split())
    assert 0.0 < low < high < 200.0  # in the container
