"""Drive `chargen ... --interactive` through a pseudo-terminal, as a player would.

    from pty_walk import walk
    run = walk(["karma", "pc", "--interactive", "--seed", "3", "-f", "json"],
               answers=[("Välj .*Bakgrund", "1"), ("Karma", "")])
    run.code, run.stdout, run.stderr, run.prompts, run.answers

stdin and stderr are the terminal (so the prompts are what a player sees); stdout is
a pipe (the result). Each prompt line (the text before the cursor when chargen waits
for input) is answered by the first (pattern, answer) whose regex matches it, each
pair used once in order of the list; a prompt no pair matches gets `default`. A walk
that does not end within `timeout` seconds fails.
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from dataclasses import dataclass, field


@dataclass
class Walk:
    code: int
    stdout: str
    stderr: str
    prompts: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)


def walk(
    args: list[str],
    answers: list[tuple[str, str]] | None = None,
    default: str | None = "",
    timeout: float = 60.0,
    close_after: int | None = None,
    env: dict | None = None,
) -> Walk:
    """Run chargen with `args` on a pseudo-terminal and answer its prompts.

    `default=None` closes stdin (Ctrl-D) at the first prompt no pair matches;
    `close_after=N` closes it after N answers.
    """
    import pty

    pending = [(re.compile(p), a) for p, a in answers or []]
    master, slave = pty.openpty()
    child_env = dict(os.environ if env is None else env)
    child_env.setdefault("COLUMNS", "80")
    proc = subprocess.Popen(
        [sys.executable, "-m", "chargen", *args],
        stdin=slave,
        stderr=slave,
        stdout=subprocess.PIPE,
        env=child_env,
        close_fds=True,
    )
    os.close(slave)
    seen = b""
    out = b""
    prompts: list[str] = []
    given: list[str] = []
    deadline = time.monotonic() + timeout
    closed = False
    try:
        while True:
            if time.monotonic() > deadline:
                proc.kill()
                raise AssertionError(f"walk timed out; last output:\n{seen[-2000:].decode()}")
            ready, _, _ = select.select([master, proc.stdout], [], [], 0.05)
            if proc.stdout in ready:
                chunk = os.read(proc.stdout.fileno(), 65536)
                out += chunk
            if master in ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    chunk = b""
                seen += chunk
                if not chunk and proc.poll() is not None:
                    break
            if proc.poll() is not None and not ready:
                break
            text = seen.decode("utf-8", "replace")
            tail = text.rsplit("\n", 1)[-1] if "\n" in text else text
            if tail.endswith(" ") and tail.strip() and not closed and _waiting(proc, master):
                prompt = _prompt_of(text)
                prompts.append(prompt)
                answer = None
                for n, (pattern, reply) in enumerate(pending):
                    if pattern.search(prompt):
                        answer = reply
                        pending.pop(n)
                        break
                if answer is None:
                    answer = default
                if answer is None or (close_after is not None and len(given) >= close_after):
                    os.write(master, b"\x04")  # Ctrl-D
                    closed = True
                else:
                    given.append(answer)
                    os.write(master, answer.encode() + b"\r")
                seen += b"\n"
        rest = proc.stdout.read()
        out += rest or b""
        proc.wait(timeout=10)
    finally:
        os.close(master)
    clean = seen.decode("utf-8", "replace").replace("\r\n", "\n").replace("\r", "")
    return Walk(proc.returncode, out.decode("utf-8"), clean, prompts, given)


def _prompt_of(text: str) -> str:
    """The question being asked: the last paragraph of lines before the cursor."""
    lines = text.replace("\r", "").rstrip(" ").split("\n")
    block = []
    for line in reversed(lines):
        if not line.strip() or line[:1].isspace():  # a blank line or an option's line
            break
        block.append(line.strip())
    return " ".join(reversed(block))


def _waiting(proc: subprocess.Popen, master: int) -> bool:
    """True when the child sleeps waiting for input (Linux: its state in /proc), seen
    twice with no output between: on a loaded machine a child can sleep for a moment
    halfway through writing its prompt."""
    for _ in range(2):
        if select.select([master], [], [], 0.03)[0]:
            return False  # more output is coming: not a prompt yet
        try:
            with open(f"/proc/{proc.pid}/stat") as handle:
                state = handle.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state != "S":
            return False
    return True
