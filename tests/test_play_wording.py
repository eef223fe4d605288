"""What drunter play says is data plus the catalogs' words (drunter_notation/web/app.py,
table/answer.py, table/seats.py): Starlette's own refusals, a new game's problem, a
tally's option, the typed move's hint; and the one spelling of a bot on the command line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from drunter_notation.cli import cli
from drunter_notation.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1"
HANDS = {"Anna": "W3 W2x2 W1x2 S3 S2x2 S1x2", "Ben": "W3 W2x2 W1x2 R3 R2x2 R1x2"}


@pytest.fixture
def client(tmp_path):
    shutil.copy(ROOT / "replays" / "boards" / "tiny.toml", tmp_path / "tiny.toml")
    with TestClient(create_app(tmp_path), base_url=BASE) as c:
        yield c


@pytest.mark.parametrize("lang,words", [("en", "no page and no API route"), ("de", "keine Seite"),
                                        ("cs", "žádná stránka")])
def test_no_such_route_is_data_and_a_translated_line(client, lang, words):
    r = client.get("/api/nothing-here", headers={"X-Drunter-Lang": lang})
    assert r.status_code == 404 and r.json()["code"] == "not-found" and r.json()["data"] == {"path": "/api/nothing-here"}
    assert words in r.json()["error"] and "Not Found" not in r.json()["error"]
    r = client.put("/api/games", json={}, headers={"X-Drunter-Lang": lang})
    assert r.status_code == 405 and r.json()["code"] == "method-not-allowed"
    assert r.json()["data"] == {"path": "/api/games", "method": "PUT"}


def test_a_new_games_problem_names_no_request(client):
    r = client.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"],
                                        "deal": {"hands": {"Anna": "W3 Q9"}}})
    assert r.status_code == 422 and not r.json()["error"].startswith("request")
    assert r.json()["error"].startswith("the new game: error[D001]")
    de = client.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "deal": {"hands": {"Anna": "Q9"}}},
                     headers={"X-Drunter-Lang": "de"})
    assert de.json()["error"].startswith("das neue Spiel: ")


@pytest.mark.parametrize("lang,words", [("en", "yes at least no"), ("de", None), ("cs", None)])
def test_a_tallys_option_is_an_id_and_words(client, lang, words):
    assert client.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"], "board": "tiny.toml",
                                           "deal": {"hands": HANDS}}).status_code == 201
    t = client.post("/api/games/t/tally", json={"vote": {"Anna": ["JA"], "Ben": ["NE"]}},
                    headers={"X-Drunter-Lang": lang}).json()
    assert t["option"] == "yes-at-least-no" and t["option_text"] and t["option_text"] != t["option"]
    assert words is None or t["option_text"] == words


def test_the_typed_moves_hint_says_how_to_type_it(client):
    assert client.post("/api/games", json={"name": "t", "players": ["Anna", "Ben"]}).status_code == 201
    r = client.post("/api/games/t/moves", json={"move": "W3 b1-", "turn": 1})
    assert r.status_code == 422 and "@corner" not in r.json()["error"] and "W3 b1-d1" in r.json()["error"]


@pytest.mark.parametrize("spec", ["ismcts:sims=1_000", "ismcts:sims=２００", "ismcts:sims=20x", "ismcts:sims=2:sims=3"])
def test_tournament_reads_bots_with_the_same_grammar(spec):
    out = CliRunner().invoke(cli, ["tournament", "--bots", f"{spec},greedy", "--games", "1"])
    assert out.exit_code == 2 and "error[U002]" in out.output


@pytest.mark.parametrize("setting, example", [("sims=-1", "sims=400"), ("time=1e-300", "time=0.5"), ("c=-0", "c=1.4")])
def test_a_setting_that_is_a_number_in_another_form_is_told_which_form(setting, example):
    out = CliRunner().invoke(cli, ["tournament", "--bots", f"ismcts:{setting},greedy", "--games", "1"])
    assert out.exit_code == 2 and "not a number" not in out.output
    assert "ASCII digits, without a sign or an exponent" in out.output and out.output.rstrip().endswith(example)


@pytest.mark.parametrize("setting, said", [
    ("sims=10000001", "sims must be 1 to 100,000, not 10000001"), ("time=100000", "at most 60 seconds, not 100000"),
    ("c=12", "c must be 0 to 10, not 12"), ("c=1.000000001", "has more than 6 digits after the point")])
def test_a_setting_in_ascii_digits_out_of_its_range_is_told_its_range(setting, said):
    out = CliRunner().invoke(cli, ["tournament", "--bots", f"ismcts:{setting},greedy", "--games", "1"])
    assert out.exit_code == 2 and said in out.output and "ASCII digits" not in out.output, out.output


@pytest.mark.parametrize("setting, spelled", [("time=0.00001", "time=0.00001"), ("time=60", "time=60"),
                                              ("c=0.000001", "c=0.000001"), ("sims=0004", "sims=4")])
def test_a_setting_in_range_is_read_and_spelled_as_typed(setting, spelled):
    from drunter_notation.bots import canonical_bot
    assert canonical_bot(f"ismcts:{setting}") == f"ismcts:{spelled}"


def test_tournament_names_a_bot_in_its_one_spelling():
    out = CliRunner().invoke(cli, ["tournament", "--bots", "ismcts:c=0.50:sims=03,greedy", "--games", "2"])
    assert out.exit_code == 0 and "ismcts:sims=3:c=0.5" in out.output, out.output


@pytest.mark.parametrize("setting, said", [({"c": -1e-7}, "not -1e-07"), ({"time": -1e-9}, "not -1e-09"),
                                           ({"time": 1e6}, "not 1000000"), ({"c": 10.5}, "not 10.5")])
def test_an_api_setting_out_of_range_is_shown_as_it_came_not_rounded_into_range(setting, said):
    from drunter_notation.bots.ismcts import IsmctsBot
    from drunter_notation.errors import DnError
    with pytest.raises(DnError) as e:
        IsmctsBot(**setting)
    assert str(e.value).endswith(said), str(e.value)
