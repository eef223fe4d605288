"""The browser edition's Python side under CPython (the same modules run in the page's worker):
cli() gives drunter's bytes in a folder of its own, refuses paths outside it; the typed game
calls follow the Game API; the table core's worker transport plays a game of a person and a
bot to its end and keeps it across a new worker (docs/browser.md)."""
from __future__ import annotations

import asyncio
import json
import subprocess
import sys

from conftest import ROOT, RUN_CLI, run_async

from drunter_notation import Game
from drunter_notation.cli import browser, table_worker

RECORD = (ROOT / "replays" / "illegal" / "A001-bridge-run.dn").read_text("utf-8")
BOARD = (ROOT / "replays" / "boards" / "tiny.toml").read_text("utf-8")


def call(name: str, **args: object) -> object:
    return json.loads(browser.call(name, json.dumps(args)))


def test_cli_gives_drunters_bytes_in_a_folder_of_its_own(tmp_path):
    files = {"illegal/a.dn": RECORD, "boards/tiny.toml": BOARD}
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, "utf-8")
    for args in (["validate", "illegal/a.dn"], ["--lang", "cs", "validate", "--format", "json", "illegal/a.dn"],
                 ["fmt", "illegal/a.dn"]):
        done = subprocess.run([sys.executable, "-c", RUN_CLI, *args], cwd=tmp_path, capture_output=True, text=True,
                              env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
        assert call("cli", args=args, files=files) == {"status": done.returncode, "stdout": done.stdout,
                                                       "stderr": done.stderr, "files": {}}
    written = call("cli", args=["report", "illegal/a.dn", "-o", "out.html"], files=files)
    assert isinstance(written, dict) and written["files"]["out.html"].startswith("<!DOCTYPE html>")


def test_cli_refuses_a_file_outside_its_folder():
    for bad in ("../x.dn", "/etc/x.dn", ""):
        answer = call("cli", args=["validate", "x.dn"], files={bad: "x"})
        assert isinstance(answer, dict) and answer["error"]["code"] == "U002", bad


def test_the_typed_game_calls_follow_the_game_api():
    state = call("new_game", players=["Anna", "Ben"], seed=7, bots={"Ben": "easy"})
    assert isinstance(state, dict)
    game = Game.new(["Anna", "Ben"], seed=7)
    assert state["position"] == game.position() and [m["move"] for m in state["legal"]] == [
        str(m) for m in game.legal_moves()]
    after = call("push", game=state["game"], move=state["legal"][0]["move"])
    game.push(game.legal_moves()[0])
    assert isinstance(after, dict) and after["record"] == game.to_dn()
    bot = call("decide", game=state["game"])
    assert isinstance(bot, dict) and bot["move"] in call("legal_moves", game=state["game"])  # type: ignore[operator]
    refused = call("push", game=state["game"], move="pass")  # Ben can place: Legezwang
    assert isinstance(refused, dict) and refused["error"]["code"] == "T004"
    back = call("undo", game=state["game"])
    assert isinstance(back, dict) and back["position"] == state["position"]
    verdicts = call("verdict", game=state["game"], move=state["legal"][0]["move"], rules="all")
    assert isinstance(verdicts, dict) and len(verdicts["verdicts"]) == len(call("rulesets"))  # type: ignore[arg-type]


def test_the_table_core_plays_a_person_and_a_bot_to_the_end_and_goes_on_in_a_new_worker():
    async def main() -> None:
        told: list[str] = []
        table_worker.start(told.append)

        async def ask(method: str, path: str, body: dict[str, object] | None = None, token: str | None = None):
            answer = json.loads(await table_worker.ask(method, path, json.dumps(body or {}), token))
            return answer["status"], answer["body"]

        status, _ = await ask("POST", "/api/games", {"name": "g", "players": ["Anna", "Ben"], "deal": "random",
                                                     "bots": {"Ben": "easy"}, "hints": True})
        assert status == 201
        assert (await ask("POST", "/api/games/g/autoplay", {"delay_ms": 0}))[0] == 200  # the bot at once
        anna = json.loads(table_worker.tokens("g", json.dumps(["Anna", "Ben"])))["Anna"]
        kept = None
        for _ in range(5_000):
            status, seat = await ask("GET", "/api/seat/g", token=anna)
            assert status == 200
            if seat["over"]:
                break
            vote = seat["vote"]
            if vote is not None:
                if "Anna" not in vote["laid"] and not vote["shown"]:
                    await ask("POST", "/api/seat/g/lay", {"cards": ["?"]}, anna)
                elif "Anna" in (vote.get("jein_due") or []):
                    await ask("POST", "/api/seat/g/jein", {"side": "yes"}, anna)
            elif seat["to_move"] == "Anna":
                move = seat["legal"][0] if seat["legal"] else {"move": "pass", "needs_vote": False}
                route = "ballot" if move["needs_vote"] else "moves"
                status, _ = await ask("POST", f"/api/seat/g/{route}", {"move": move["move"], "turn": seat["turn"]}, anna)
                assert status == 200
                if seat["turn"] > 6 and kept is None:
                    kept = json.loads(table_worker.export("g")), seat["turn"]
            await asyncio.sleep(0.001)  # the bot plays on the loop
        assert seat["over"] and seat["result"]["winners"] and "g" in told
        assert kept is not None
        table_worker.start(told.append)  # a reload: a new worker, the game from the browser's storage
        table_worker.restore("g", json.dumps(kept[0]))
        status, again = await ask("GET", "/api/games/g")
        assert status == 200 and again["turn"] >= kept[1] and not again["over"]
    run_async(main())


def test_a_command_s_language_and_warnings_end_with_it_as_a_process_s_do():
    from drunter_notation import i18n
    from drunter_notation.cli.browser import cli
    before = i18n.language()
    first = cli(["--lang", "xx", "rules", "list"])
    assert i18n.language() == before
    assert cli(["--lang", "xx", "rules", "list"]) == first and "xx" in str(first["stderr"])
    assert cli(["--lang", "de", "rules", "list"])["stdout"] != cli(["rules", "list"])["stdout"]


def test_cli_takes_its_own_lang_over_the_call_s_and_the_call_s_as_its_default():
    for lang, args in (("en", ["--lang", "cs", "validate", "nothere.dn"]),
                       ("cs", ["--lang", "en", "validate", "nothere.dn"]), ("de", ["validate", "nothere.dn"])):
        env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "LANGUAGE": lang}
        done = subprocess.run([sys.executable, "-c", RUN_CLI, *args], capture_output=True, text=True, env=env,
                              stdin=subprocess.DEVNULL)
        got = call("cli", args=args, files={}, lang=lang)
        assert isinstance(got, dict) and got["stdout"] == done.stdout, (lang, args)


def test_no_call_s_language_outlives_it():
    from drunter_notation import i18n
    before = i18n.language()
    call("cli", args=["rules", "list"], files={}, lang="cs")
    call("cli", args=["--lang", "de", "rules", "list"], files={})
    assert i18n.language() == before
    refused = call("state", game=999, lang="en")
    assert isinstance(refused, dict) and refused["error"]["message"] == "<input>: error[U002]: no such game: 999"
    refused = call("state", game=999, lang="cs")
    assert isinstance(refused, dict) and refused["error"]["message"].startswith("<input>: chyba[U002]")


def test_cli_refuses_what_it_cannot_lay_out_with_a_code_and_leaves_no_folder(tmp_path, monkeypatch):
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    for args, files in ((["validate", "a"], {"a": "x", "a/b.dn": "y"}), ("validate", {}), (["validate", 1], {}),
                        (["validate", "a"], {"a\0b": "x"}), (["validate", "a"], {"a": 1})):
        answer = call("cli", args=args, files=files)
        assert isinstance(answer, dict) and answer["error"]["code"] == "U002", (args, files)
        assert "Traceback" not in answer["error"]["message"]
    assert not list(tmp_path.iterdir())


def test_cli_reads_a_file_as_large_as_the_command_reads_and_its_own_i001_beyond():
    from drunter_notation.files import MAX_RECORD_BYTES
    at_limit = call("cli", args=["validate", "big.dn"], files={"big.dn": "x" * MAX_RECORD_BYTES})
    assert isinstance(at_limit, dict) and "[P001]" in at_limit["stdout"]  # read, and judged
    beyond = call("cli", args=["validate", "big.dn"], files={"big.dn": "x" * (MAX_RECORD_BYTES + 1)})
    assert isinstance(beyond, dict) and "big.dn: error[I001]: is too large (16.0 MB" in beyond["stdout"]


def test_cli_s_standard_input_is_empty_as_with_dev_null():
    done = subprocess.run([sys.executable, "-c", RUN_CLI, "validate", "-"], capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL)
    assert "[I004]" in done.stdout
    assert call("cli", args=["validate", "-"], files={}) == {"status": done.returncode, "stdout": done.stdout,
                                                           "stderr": done.stderr, "files": {}}


def test_the_table_core_answers_in_the_language_asked():
    async def main() -> None:
        table_worker.start(lambda name: None)
        body = json.dumps({"name": "l", "players": ["Anna", "Ben"], "deal": "random"})
        assert json.loads(await table_worker.ask("POST", "/api/games", body, None))["status"] == 201
        svgs = {lang: json.loads(await table_worker.ask("GET", "/api/games/l/board.svg", "{}", None, lang))["body"]
                for lang in ("en", "de")}
        from drunter_notation import i18n
        with i18n.using("de"):
            german = i18n._("the board")
        assert german != "the board" and german in svgs["de"] and german not in svgs["en"]
    run_async(main())


def test_a_command_this_python_cannot_run_is_one_usage_line_not_a_traceback(monkeypatch):
    # a page's Python has no web browser module, which the table server's command imports
    monkeypatch.setitem(sys.modules, "webbrowser", None)
    monkeypatch.delitem(sys.modules, "drunter_notation.cli.play", raising=False)
    for args in (["play", "--help"], ["--lang", "de", "play"]):
        out = browser.cli(args)
        assert out["status"] == 2 and out["stdout"] == "", out
        assert out["stderr"].count("\n") == 1 and "Traceback" not in out["stderr"], out
        assert "play" in out["stderr"] and "webbrowser" in out["stderr"], out
    assert browser.cli(["validate", "--help"])["status"] == 0  # the others run as before


def test_calls_of_the_wrong_shape_are_one_coded_refusal_not_a_traceback():
    """What a page's script may pass wrongly (null, a number, a game kept by another version) is answered
    {"error": {"code": "U002"}}, as the game calls answer it."""
    from drunter_notation.cli import table_worker
    from drunter_notation.cli.browser import call

    def refused(answer: str) -> str:
        return json.loads(answer)["error"]["code"]

    table_worker.start(lambda name: None)
    assert refused(run_async(table_worker.ask(5, "/api/games", "{}", None))) == "U002"
    assert refused(run_async(table_worker.ask("GET", None, "{}", None))) == "U002"
    assert refused(table_worker.tokens("g", "null")) == refused(table_worker.tokens(None, '["A"]')) == "U002"
    assert refused(table_worker.restore("g", "null")) == refused(table_worker.restore("g", '{"text": 3}')) == "U002"
    assert refused(table_worker.export("no such game")) == refused(table_worker.export(None)) == "U002"
    assert refused(call("new_game", json.dumps({"players": ["A", "B"], "bots": "x"}))) == "U002"
    game = json.loads(call("new_game", json.dumps({"players": ["A", "B"], "seed": 1})))["game"]
    assert refused(call("decide", json.dumps({"game": game, "kind": "choose"}))) == "U002"
