"""A seeded mutation fuzzer for DN records, through the functions the CLI calls.

Every input is a record of the corpus -- the samples under ``replays/`` and
simulated games -- changed one to three times: a bit flipped, a token replaced,
deleted or doubled, lines swapped, doubled or dropped, the text cut short, a
control, bidi or separator character put in, a number made huge (5,000 digits), a
player's name made hostile (bidi controls, CR, U+2028, 20,000 characters), a line
of another record spliced in. Input ``i`` of seed ``s`` is made by
``random.Random(f"{s}-{i}")`` alone, so any finding is reproduced by its two numbers.

Each input goes through what ``drunter validate`` does with a file
(``cli.validate.judge``: every diagnostic's line and caret and the summary line;
the JSON line and ``--expect``'s line for one input in four and in ten) and, for one
input in :data:`ADJUDICATE_EVERY`, through ``drunter adjudicate``'s text.
A finding is: an exception other than the project's own ``DnError``; an output line
that holds a line break or a non-printable character, or a diagnostic line not of
the form ``path:line:col: severity[CODE]: message``; JSON that does not load; an
input that takes more than :data:`MAX_SECONDS` of CPU time (one still running after
:data:`HANG_SECONDS` of CPU is stopped and counted as a hang).

The CI slice is ``tests/fuzz/test_fuzz.py``; a long run is one command::

    python tests/fuzz/dnfuzz.py --inputs 1000000 --jobs 2      # about 2 hours on 2 cores
    python tests/fuzz/dnfuzz.py --seed 1 --only 4711 --show    # replay one finding
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import signal
import sys
import time
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere: the project's own code
    sys.path.insert(0, str(ROOT))

from drunter_notation.cli.validate import Job, judge  # noqa: E402
from drunter_notation.data.boardfile import load_board  # noqa: E402
from drunter_notation.data.rulesets import load_ruleset  # noqa: E402
from drunter_notation.deal import PLAYER_NAMES  # noqa: E402
from drunter_notation.errors import DnError, printable, printable_lines  # noqa: E402
from drunter_notation.notation.formatter import format_record  # noqa: E402
from drunter_notation.simulate import simulate_game  # noqa: E402

MAX_SECONDS = 2.0  # CPU seconds per input
HANG_SECONDS = 20  # CPU seconds after which an input is stopped and counted as a finding (a busy or paused machine is none)
ADJUDICATE_EVERY = 25
JSON_EVERY = 4
EXPECT_EVERY = 10
SIMULATED = 12  # simulated games in the corpus, next to the samples

DIAGNOSTIC_LINE = re.compile(r"^.+?(?::\d+:\d+)?: (?:error|warning)\[[A-Z]\d{3}\]: .+$")

NUMBERS = ("0", "1", "7", "00", "99", "100", "999", "1000", "999999", "1000000", "4294967296", "9" * 30,
           "9" * 4300, "1" * 5000, "0" * 5000 + "1")
HOSTILE = ("\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200e", "\u200f", "\u061c", "\r",
           "\u2028", "\u2029", "\x1b[31m", "\x07", "\x08", "\x7f", "\x85", "\x0b", "\x0c", "\t", "\ufeff",
           "\u200b", "\u200d", "\U000e0001", "\ud7ff", "\ufffe", "\x00", "\n", "\\", '"', "#", "é", "ß", "Ж",
           "中", "🂡", "\u0301")
TOKENS = ("[", "]", '"', "hand", "goals", "choose", "pass", "vote", "reveal", "score", "->", "accepted",
          "rejected", "W3", "S2", "R1", "W2x4", "S1x99", "a1", "b2", "z99", "a100", "b1-d1", "@", "@f1", "JA",
          "JAAA", "NEEE", "JEIN", "JEIN=yes", "JEIN = no", "?", "museum", "all-threes", "{", "}", ":", ",",
          "-", "/", "12.", "3:2", "1 : 1", "Anna", "Ben", "[Variant \"expert\"]", "[Rules \"webley-en\"]",
          "[Board \"boards/tiny.toml\"]", "[Board \"x.toml\"]", "[Date \"2024-02-30\"]", "[Result \"*\"]")


@dataclass(frozen=True)
class Finding:
    seed: int
    index: int
    kind: str  # "exception", "unsafe line", "slow", "hang"
    detail: str
    path: str
    data: bytes

    def __str__(self) -> str:
        shown = self.data[:160]
        more = f" (+{len(self.data) - 160} bytes)" if len(self.data) > 160 else ""
        return f"seed {self.seed} input {self.index} ({self.path}): {self.kind}: {self.detail}\n    {shown!r}{more}"


# -- the corpus ------------------------------------------------------------------

@lru_cache(maxsize=1)
def corpus() -> tuple[tuple[str, str], ...]:
    """(path, text) of every sample record and of :data:`SIMULATED` simulated games.
    Samples keep their real paths, so the board files they name are found."""
    out = [(str(p), p.read_text("utf-8")) for p in sorted((ROOT / "replays").rglob("*.dn"))]
    board, rulesets = load_board("schilda"), ["hig-1991", "webley-en", "deskovehry-cz"]
    for i in range(SIMULATED):
        rng = random.Random(f"corpus-{i}")
        players = PLAYER_NAMES[:2 + i % 3]
        record = simulate_game(board, load_ruleset(rulesets[i % 3]), players, rng,
                               "expert" if i % 4 == 3 else "base")
        out.append((str(ROOT / "replays" / f"simulated-{i}.dn"), format_record(record)))
    return tuple(out)


# -- mutations ---------------------------------------------------------------------

_WORDS = re.compile(r"\S+")


def _token_edit(rng: random.Random, text: str) -> str:
    words = list(_WORDS.finditer(text))
    if not words:
        return text + rng.choice(TOKENS)
    m = rng.choice(words)
    how = rng.random()
    new = "" if how < 0.25 else m.group(0) + " " + m.group(0) if how < 0.4 else rng.choice(TOKENS)
    return text[:m.start()] + new + text[m.end():]


def _lines(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    how = rng.random()
    if how < 0.4:
        lines[i], lines[j] = lines[j], lines[i]
    elif how < 0.6:
        lines.insert(i, lines[j])
    elif how < 0.8:
        del lines[i]
    else:
        part = lines[min(i, j):max(i, j) + 1]
        rng.shuffle(part)
        lines[min(i, j):max(i, j) + 1] = part
    return "\n".join(lines)


def _truncate(rng: random.Random, text: str) -> str:
    return text[:rng.randrange(len(text) + 1)]


def _insert_char(rng: random.Random, text: str) -> str:
    pos = rng.randrange(len(text) + 1)
    ch = rng.choice(HOSTILE) if rng.random() < 0.8 else chr(rng.randrange(0x20, 0x110000))
    if 0xD800 <= ord(ch[0]) <= 0xDFFF:  # a lone surrogate cannot be written as UTF-8
        ch = "\ufffd"
    return text[:pos] + ch * rng.choice((1, 1, 1, 2, 50)) + text[pos:]


def _number(rng: random.Random, text: str) -> str:
    runs = list(re.finditer(r"\d+", text))
    if not runs:
        return text
    m = rng.choice(runs)
    return text[:m.start()] + rng.choice(NUMBERS) + text[m.end():]


def _hostile_name(rng: random.Random) -> str:
    base = rng.choice(("Anna", "Ben", "Zoë", "", " ", "A" * rng.choice((1, 100, 5000, 20000))))
    for _ in range(rng.randint(0, 3)):
        pos = rng.randrange(len(base) + 1)
        base = base[:pos] + rng.choice(HOSTILE[:24]) + base[pos:]
    return base.replace('"', "").replace("\\", "").replace("\n", "")


def _rename(rng: random.Random, text: str) -> str:
    """A player's name replaced everywhere: bare in the Players tag, quoted elsewhere."""
    m = re.search(r'\[Players "([^"]*)"\]', text)
    if not m:
        return text
    names = [n.strip() for n in m.group(1).split(",") if n.strip()]
    if not names:
        return text
    old, new = rng.choice(names), _hostile_name(rng)
    tag = m.group(0).replace(old, new.replace(",", ""), 1)
    body = re.sub(rf"(?<![\w\"]){re.escape(old)}(?![\w\"])", lambda _: f'"{new}"', text[m.end():])
    return text[:m.start()] + tag + body


def _splice(rng: random.Random, text: str) -> str:
    other = rng.choice(corpus())[1].split("\n")
    lines = text.split("\n")
    lines.insert(rng.randrange(len(lines) + 1), rng.choice(other))
    return "\n".join(lines)


TEXT_MUTATIONS = (_token_edit, _token_edit, _lines, _truncate, _insert_char, _insert_char, _number, _number,
                  _rename, _rename, _splice)


def _flip(rng: random.Random, data: bytes) -> bytes:
    if not data:
        return bytes([rng.randrange(256)])
    b = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    return bytes(b)


def make_input(seed: int, index: int) -> tuple[str, bytes]:
    """Input ``index`` of ``seed``: (the sample path it stands for, its bytes)."""
    rng = random.Random(f"{seed}-{index}")
    path, text = rng.choice(corpus())
    if rng.random() < 0.5:  # most mutations need no whole game: a shorter one fuzzes faster
        lines = text.split("\n")
        text = "\n".join(lines[:rng.randrange(1, len(lines) + 1)])
    for _ in range(rng.choice((1, 1, 2, 3))):
        text = rng.choice(TEXT_MUTATIONS)(rng, text)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        data = _flip(rng, data)
    if rng.random() < 0.02:
        data = text.encode(rng.choice(("utf-16", "utf-16-be", "utf-32", "latin-1")), "replace")
    return path, data


# -- checking one input ------------------------------------------------------------

def output_lines(data: bytes, path: str, index: int | None = None) -> list[tuple[str, str | None]]:
    """What ``drunter validate`` prints for ``data``, as (line, path) pairs: the lines
    of ``cli.validate.judge``, the function each worker of the command runs, split at
    line breaks as a terminal would show them. Text always; with ``index`` given, JSON
    for one input in :data:`JSON_EVERY` and ``--expect`` for one in :data:`EXPECT_EVERY`
    (each is another replay), all three without it."""
    out = []
    ways = [("text", False)]
    if index is None or index % JSON_EVERY == 1:
        ways.append(("json", False))
    if index is None or index % EXPECT_EVERY == 2:
        ways.append(("text", True))
    for fmt, expect in ways:
        for _, text in judge(Job(path, fmt, None, None, expect, data)).lines:
            out += [(line, path) for line in text.split("\n")]
    return out


def adjudicate_lines(data: bytes, path: str, rng: random.Random) -> list[str]:
    """What ``drunter adjudicate FILE --turn N`` prints (text), for a turn of the record."""
    from drunter_notation.adjudication import adjudicate, as_text
    from drunter_notation.notation.parser import parse_bytes
    try:
        record = parse_bytes(data, path)
        turn = rng.randint(0, len(record.events) + 1)
        verdicts = adjudicate(record, path, turn, None, None)
    except DnError as e:
        return [e.format(path)]
    return printable_lines(as_text(path, turn, None, verdicts, False)).split("\n")


NO_BREAK = str.maketrans("", "", "\u00a0\u202f")  # kept by printable(): they split no line and reorder nothing
_SUMMARY = re.compile(r"(?:valid|invalid|ok|MISMATCH)\b")


def problems(lines: list[tuple[str, str | None]]) -> list[str]:
    """What is wrong with output lines, given as (line, the path validate printed them
    for, or None for free text such as adjudicate's): a non-printable character; for
    validate, a line that is neither JSON, a caret line, a summary nor a well-formed
    diagnostic (a line split in two, a malformed finding)."""
    out = []
    for line, path in lines:
        if not line.translate(NO_BREAK).isprintable():
            bad = next(c for c in line.translate(NO_BREAK) if not c.isprintable())
            out.append(f"unsafe character U+{ord(bad):04X} in {line[:120]!r}")
        elif path is None or line.startswith("    "):
            continue
        elif line.startswith("{"):
            json.loads(line)
        elif not line.startswith(f"{printable(path)}:"):
            out.append(f"a stray line: {line[:120]!r}")
        elif not _SUMMARY.match(line[len(printable(path)) + 2:]) and not DIAGNOSTIC_LINE.match(line):
            out.append(f"not a diagnostic line: {line[:120]!r}")
    return out


class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def check(seed: int, index: int) -> Finding | None:
    """Make input ``index`` of ``seed`` and judge it; the finding, if any."""
    path, data = make_input(seed, index)
    rng = random.Random(f"{seed}-{index}-adjudicate")
    start = time.process_time()
    old = signal.signal(signal.SIGPROF, _alarm)
    signal.setitimer(signal.ITIMER_PROF, HANG_SECONDS)
    try:
        lines = output_lines(data, path, index)
        if index % ADJUDICATE_EVERY == 0:
            lines += [(line, None) for line in adjudicate_lines(data, path, rng)]
        found = problems(lines)
    except _Hang:
        return Finding(seed, index, "hang", f"stopped after {HANG_SECONDS} s of CPU", path, data)
    except DnError:
        found = []
    except Exception as e:
        return Finding(seed, index, "exception", f"{type(e).__name__}: {str(e)[:200]}", path, data)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    spent = time.process_time() - start
    if found:
        return Finding(seed, index, "unsafe line", found[0], path, data)
    if spent > MAX_SECONDS:
        return Finding(seed, index, "slow", f"{spent:.2f} s of CPU", path, data)
    return None


def _chunk(args: tuple[int, int, int]) -> tuple[list[Finding], float, float]:
    seed, start, stop = args
    findings, slowest = [], 0.0
    t0 = time.process_time()
    for i in range(start, stop):
        before = time.process_time()
        f = check(seed, i)
        slowest = max(slowest, time.process_time() - before)
        if f is not None:
            findings.append(f)
    return findings, slowest, time.process_time() - t0


def run(inputs: int, seed: int = 1, jobs: int = 1, start: int = 0, progress=None) -> dict:
    """Check inputs ``start .. start + inputs - 1`` of ``seed`` on ``jobs`` processes."""
    step = 2000
    chunks = [(seed, i, min(i + step, start + inputs)) for i in range(start, start + inputs, step)]
    corpus()  # built once before forking: workers share it
    findings: list[Finding] = []
    slowest = cpu = 0.0
    t0 = time.perf_counter()
    pool = multiprocessing.get_context("fork").Pool(jobs) if jobs > 1 else None
    results = pool.imap(_chunk, chunks) if pool else map(_chunk, chunks)
    try:
        for n, (found, slow, spent) in enumerate(results, 1):
            findings += found
            slowest, cpu = max(slowest, slow), cpu + spent
            if progress:
                progress(f"{min(n * step, inputs):>9,} inputs, {len(findings)} findings, slowest {slowest:.2f} s")
    finally:
        if pool:
            pool.terminate()
    return {"inputs": inputs, "seed": seed, "findings": findings, "slowest": slowest,
            "cpu_seconds": cpu, "wall_seconds": time.perf_counter() - t0,
            "kinds": Counter(f.kind for f in findings)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--start", type=int, default=0, help="first input index")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--only", type=int, help="check this one input and print what it gives")
    ap.add_argument("--show", action="store_true", help="with --only: print the input and its output")
    ap.add_argument("--save", type=Path, help="write each finding's input to this folder")
    args = ap.parse_args(argv)
    if args.only is not None:
        path, data = make_input(args.seed, args.only)
        if args.show:
            print(f"{path}: {data[:2000]!r}")
            for line, _ in output_lines(data, path):
                print(repr(line[:300]))
        f = check(args.seed, args.only)
        print(f or "no finding")
        return 1 if f else 0
    result = run(args.inputs, args.seed, args.jobs, args.start,
                 progress=lambda s: print(s, file=sys.stderr, flush=True))
    for f in result["findings"]:
        print(f)
        if args.save:
            args.save.mkdir(parents=True, exist_ok=True)
            (args.save / f"seed{f.seed}-{f.index}.bin").write_bytes(f.data)
    print(f"{result['inputs']:,} inputs (seed {result['seed']}): {len(result['findings'])} findings "
          f"{dict(result['kinds'])}; slowest input {result['slowest']:.2f} s CPU; "
          f"{result['cpu_seconds']:.0f} s CPU, {result['wall_seconds']:.0f} s wall on {args.jobs} job(s)")
    return 1 if result["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
