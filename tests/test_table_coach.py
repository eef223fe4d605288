"""The coach's queue (table/coach.py): a table the coach served longest ago is next, the queue is
bounded, a flood of questions pushes back its own, and no question lost or cancelled keeps a slot."""
from __future__ import annotations

import asyncio

from conftest import examples, run_async
from hypothesis import given, settings
from hypothesis import strategies as st

from drunter_notation.table.bots import HintJob
from drunter_notation.table.coach import Coach
from drunter_notation.table.store import Refused


class Gated:
    """A thinker whose hints end when the test says so, in the order they started."""

    running = True

    def __init__(self) -> None:
        self.started: list[str] = []
        self.gates: list[asyncio.Event] = []

    async def decide(self, job):  # pragma: no cover - the coach asks hints only
        raise AssertionError(job)

    async def hint(self, job: HintJob):
        self.started.append(job.game)
        gate = asyncio.Event()
        self.gates.append(gate)
        await gate.wait()
        return [{"move": "pass", "win": 0.5}]

    async def finish_one(self) -> None:
        gate = next(g for g in self.gates if not g.is_set())
        gate.set()
        for _ in range(5):  # the answer, the next question's turn, its start
            await asyncio.sleep(0)


def job(table: str) -> HintJob:
    return HintJob("", "t.dn", "Anna", ("W",), 1, table)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def outcome(task: asyncio.Task) -> str:
    if not task.done():
        return "waiting"
    e = task.exception()
    return "answered" if e is None else f"{e.status} {e.code} {e.data}" if isinstance(e, Refused) else repr(e)


def test_a_table_helped_before_a_flood_of_new_tables_goes_before_all_of_them():
    async def scenario():
        thinker = Gated()
        coach = Coach(thinker, asyncio.Event, slots=1, waiting_most=4)
        person = asyncio.ensure_future(coach.hint(job("person")))
        await settle()
        await thinker.finish_one()
        assert outcome(person) == "answered"
        flood = [asyncio.ensure_future(coach.hint(job(f"new-{i}"))) for i in range(10)]
        await settle()
        # one thought out, four waiting, the five that ranked after them refused at once
        assert [outcome(t) for t in flood] == ["waiting"] * 5 + ["429 coach-busy {'most': 4}"] * 5
        again = asyncio.ensure_future(coach.hint(job("person")))
        await settle()
        assert outcome(flood[4]) == "429 coach-busy {'most': 4}"  # the last waiting made room for it
        await thinker.finish_one()
        assert thinker.started == ["person", "new-0", "person"]  # next, before every new table
        await thinker.finish_one()
        assert outcome(again) == "answered"
        for _ in range(3):
            await thinker.finish_one()
        assert [outcome(t) for t in flood[:4]] == ["answered"] * 4 and coach.thinking == 0 and not coach.waiting
    run_async(scenario())


def test_a_table_asking_again_and_again_waits_behind_another_table():
    async def scenario():
        thinker = Gated()
        coach = Coach(thinker, asyncio.Event, slots=1, waiting_most=8)
        mine = [asyncio.ensure_future(coach.hint(job("busy"))) for _ in range(4)]
        await settle()
        other = asyncio.ensure_future(coach.hint(job("other")))
        await settle()
        await thinker.finish_one()  # "busy" was helped just now: the other table is next
        assert thinker.started == ["busy", "other"]
        await thinker.finish_one()
        assert outcome(other) == "answered" and sum(outcome(t) == "answered" for t in mine) == 1
        for _ in range(3):
            await thinker.finish_one()
        assert all(outcome(t) == "answered" for t in mine)
    run_async(scenario())


async def one_thought_one_waiting():
    """A coach of one slot: table a's question thought out, table b's waiting."""
    thinker = Gated()
    coach = Coach(thinker, asyncio.Event, slots=1, waiting_most=4)
    first = asyncio.ensure_future(coach.hint(job("a")))
    waiting = asyncio.ensure_future(coach.hint(job("b")))
    await settle()
    return thinker, coach, first, waiting


def test_a_question_no_longer_wanted_keeps_no_place_and_no_slot():
    async def scenario():
        thinker, coach, first, waiting = await one_thought_one_waiting()
        waiting.cancel()
        await settle()
        assert not coach.waiting and coach.thinking == 1
        first.cancel()  # cancelled while thought out: its slot is free again
        await settle()
        assert coach.thinking == 0
        last = asyncio.ensure_future(coach.hint(job("c")))
        await settle()
        assert thinker.started == ["a", "c"]
        await thinker.finish_one()  # a's gate: nobody waits on it any more
        await thinker.finish_one()
        assert outcome(last) == "answered" and coach.thinking == 0
    run_async(scenario())


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ask", "finish", "cancel"]), st.integers(0, 5)), max_size=40),
       st.integers(1, 3), st.integers(1, 4))
def test_the_queue_stays_bounded_and_every_question_ends(steps, slots, most):
    async def scenario():
        thinker = Gated()
        coach = Coach(thinker, asyncio.Event, slots=slots, waiting_most=most)
        tasks: list[asyncio.Task] = []
        for kind, n in steps:
            if kind == "ask":
                tasks.append(asyncio.ensure_future(coach.hint(job(f"t{n}"))))
            elif kind == "finish" and any(not g.is_set() for g in thinker.gates):
                await thinker.finish_one()
            elif kind == "cancel" and tasks:
                tasks[n % len(tasks)].cancel()
            await settle()
            assert coach.thinking <= slots and len(coach.waiting) <= most
            assert coach.thinking == sum(not t.done() for t in tasks) - len(coach.waiting)
        while any(not t.done() for t in tasks):
            await thinker.finish_one()
        assert coach.thinking == 0 and not coach.waiting
    run_async(scenario())


def test_questions_waiting_when_the_server_stops_are_refused_503_and_no_more_are_taken():
    async def scenario():
        thinker, coach, first, waiting = await one_thought_one_waiting()
        coach.close()
        await settle()
        assert outcome(waiting) == "503 None {}" and not coach.waiting
        late = asyncio.ensure_future(coach.hint(job("c")))
        await settle()
        assert outcome(late) == "503 None {}" and thinker.started == ["a"]
        await thinker.finish_one()
        assert outcome(first) == "answered"
    run_async(scenario())


def test_a_question_that_would_be_refused_is_told_so_before_any_work():
    async def scenario():
        thinker, coach, first, waiting = await one_thought_one_waiting()
        coach.waiting_most = 1
        assert coach.turn_away("a") is None  # served long before b asked: it would rank first
        refused = coach.turn_away("new")
        assert refused is not None and (refused.status, refused.code) == (429, "coach-busy")
        assert coach.served["new"] >= coach.served["b"] and thinker.started == ["a"]
        for _ in range(2):
            await thinker.finish_one()
        assert coach.turn_away("new") is None and outcome(waiting) == "answered"
    run_async(scenario())
