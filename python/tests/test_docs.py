"""docs/Python.md stays true: its examples run here.

``pycon`` blocks are doctests; ``console`` blocks are shell sessions whose
``$ python3 -m xpu_codegen ...`` commands run and whose printed output must
match (both with doctest's ELLIPSIS and NORMALIZE_WHITESPACE). Both run in a
scratch directory where ``examples/`` and ``unittests/`` are the
repository's, as if from the repository root.
"""

import doctest
import re
import shlex
import subprocess
import sys

import pytest

from conftest import REPO, subprocess_env

DOC = REPO / "docs" / "Python.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
BLOCK = re.compile(r"^```(\w+)\n(.*?)^```$", re.S | re.M)


def blocks(kind):
    return [m.group(2) for m in BLOCK.finditer(DOC.read_text())
            if m.group(1) == kind]


@pytest.fixture
def repo_like(tmp_path, monkeypatch):
    for name in ("examples", "test", ".compilers"):
        if (REPO / name).exists():
            (tmp_path / name).symlink_to(REPO / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_doc_has_examples():
    assert len(blocks("pycon")) >= 2
    assert len(list(console_sessions())) >= 2


def test_pycon_examples(repo_like):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs = {}
    for index, text in enumerate(blocks("pycon")):
        # Blocks build on each other, like one interpreter session.
        test = parser.get_doctest(text, globs, f"Python.md block {index}",
                                  str(DOC), 0)
        runner.run(test, clear_globs=False)
        globs = test.globs
    assert runner.tries >= 20, runner.tries
    assert runner.failures == 0, "docs/Python.md examples failed (see above)"


def console_sessions():
    """(command, expected output) for every $ line of console blocks."""
    for text in blocks("console"):
        command, output = None, []
        for line in text.splitlines():
            if line.startswith("$ "):
                if command:
                    yield command, "\n".join(output)
                command, output = line[2:], []
            else:
                output.append(line)
        if command:
            yield command, "\n".join(output)


def test_console_examples(repo_like):
    """The sessions run in order, in one directory, like the reader's."""
    checker = doctest.OutputChecker()
    sessions = list(console_sessions())
    assert sessions
    for command, expected in sessions:
        argv = shlex.split(command)
        assert argv[:3] == ["python3", "-m", "xpu_codegen"], command
        result = subprocess.run([sys.executable] + argv[1:],
                                capture_output=True, text=True, timeout=600,
                                env=subprocess_env())
        assert result.returncode == 0, f"{command}\n{result.stderr}"
        assert checker.check_output(expected + "\n", result.stdout, FLAGS), (
            f"{command}\nexpected:\n{expected}\ngot:\n{result.stdout}")
