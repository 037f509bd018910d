"""Standing orders over the API (SQLite and PostgreSQL): each kind applied by a bot worker as the
seat's own action, cancelled, refused when a price changed, refused when illegal, kept over a restart."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

import powergrid as pg
from powergrid.server import Settings, create_app
from powergrid.server.games import order_store
from powergrid.server.games.order_store import orders as orders_table
from powergrid.server.games.orders import plan_prices
from powergrid.server.storage import db

from .conftest import auth, bot_worker, create, error_code, true_state
from .play import view
from .waiting import wait_for

pytestmark = pytest.mark.timeout(240)



class Table:
    def __init__(self, client: TestClient, game: dict[str, Any]) -> None:
        self.client = client
        self.gid = game["game_id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"] if s.get("token")}
        self.bought: set[tuple[int, int]] = set()

    def public(self) -> dict[str, Any]:
        return self.client.get(f"/api/games/{self.gid}").json()  # type: ignore[no-any-return]

    def to_act(self) -> int:
        return int(self.public()["to_act"])

    def view(self, seat: int) -> dict[str, Any]:
        return view(self.client, self.gid, seat, self.tokens[seat])

    def act(self, action: str, seat: int | None = None) -> dict[str, Any]:
        seat = self.to_act() if seat is None else seat
        current = self.view(seat)
        r = self.client.post(f"/api/games/{self.gid}/actions", headers=auth(self.tokens[seat]),
                             json={"seat": seat, "action": action, "version": current["version"]})
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def order(self, seat: int, **body: Any) -> Any:
        return self.client.post(f"/api/games/{self.gid}/orders", headers=auth(self.tokens[seat]),
                                json={"seat": seat, **body})

    def orders_of(self, seat: int) -> dict[str, Any]:
        r = self.client.get(f"/api/games/{self.gid}/orders", params={"seat": seat},
                            headers=auth(self.tokens[seat]))
        assert r.status_code == 200, r.text
        return r.json()  # type: ignore[no-any-return]

    def cancel(self, seat: int, order_id: int | None = None) -> Any:
        params: dict[str, Any] = {"seat": seat}
        if order_id is not None:
            params["order"] = order_id
        return self.client.delete(f"/api/games/{self.gid}/orders", params=params,
                                  headers=auth(self.tokens[seat]))

    def acts(self) -> list[tuple[int, str]]:
        """Every action standing in the game, with its seat."""
        state = true_state(self.client, self.gid)
        return [(e[1], str(e[2])) for e in state.events if e[0] == "act"]

    def calm_step(self) -> None:
        """The seat to act: the cheapest plant (round 1), else pass; buys the most of its first
        resource; builds nothing; powers what it can (the default). A bot's turn is waited for."""
        current = self.public()
        seat = current["to_act"]
        if seat not in self.tokens:
            wait_for(lambda: self.public()["version"] != current["version"], "the bot's move")
            return
        mine = self.view(seat)
        legal = mine["legal"]
        buys = [a for a in legal if a.startswith("buy ")]
        if buys and (mine["state"]["round"], seat) not in self.bought:
            self.bought.add((mine["state"]["round"], seat))
            first = buys[0].split()[2]
            self.act(max((a for a in buys if a.endswith(first)), key=lambda a: int(a.split()[1])), seat)
            return
        if "default_power" in mine:
            self.act(mine["default_power"], seat)
            return
        for calm in ("pass", "done"):
            if calm in legal:
                self.act(calm, seat)
                return
        self.act(legal[0], seat)

    def until(self, done: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        for _ in range(300):
            current = self.public()
            if done(current):
                return current
            self.calm_step()
        raise AssertionError(f"{what} never came")


def phase_is(phase: int, round_: int | None = None) -> Callable[[dict[str, Any]], bool]:
    return lambda p: p["state"]["phase"] == phase and (round_ is None or p["state"]["round"] == round_)


# ---------------------------------------------------------------------- bid up to
def test_bid_up_to_raises_by_the_minimum_then_passes(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    opener = table.to_act()
    table.act("open 3 3", opener)
    bidder = table.to_act()
    limit_seat = ({0, 1, 2} - {opener, bidder}).pop()

    r = table.order(limit_seat, kind="bid_up_to", limit=5)
    assert r.status_code == 200, r.text
    placed = r.json()["order"]
    assert placed["kind"] == "bid_up_to" and placed["limit"] == 5 and placed["status"] == "pending"
    # nobody else is shown the limit
    assert "limit" not in str(table.public()) and "bid_up_to" not in str(table.view(bidder))

    table.act("bid 4", bidder)
    wait_for(lambda: table.to_act() == opener, "the order's bid")
    assert table.acts()[-1] == (limit_seat, "bid 5")
    assert table.orders_of(limit_seat)["order"]["limit"] == 5  # it stays for the auction's next turns
    table.act("bid 6", opener)
    table.act("pass", bidder)
    # 7 is above the limit: the order passes, the opener wins, and the order has ended
    wait_for(lambda: table.public()["state"]["auction"]["plant"] in (0, None), "the order's pass")
    assert table.acts()[-1] == (limit_seat, "pass")
    assert true_state(client, table.gid).plants[opener] == (3,)
    assert table.orders_of(limit_seat)["order"] is None


def test_bid_up_to_placed_on_the_seats_own_turn_bids_at_once(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.act("open 3 3")
    bidder = table.to_act()
    r = table.order(bidder, kind="bid_up_to", limit=10)
    assert r.status_code == 200, r.text
    wait_for(lambda: table.to_act() != bidder, "the order's bid")
    assert table.acts()[-1] == (bidder, "bid 4")


def test_bid_up_to_refusals_are_named_and_change_nothing(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    opener = table.to_act()
    r = table.order(opener, kind="bid_up_to", limit=10)
    assert r.status_code == 409 and error_code(r) == "order_not_now"  # no plant is on auction yet
    table.act("open 3 3", opener)
    other = table.to_act()
    for body, code in (({"limit": 3}, "bid_limit_too_low"), ({"limit": 51}, "bid_over_money"),
                       ({}, "malformed_order"), ({"limit": 7, "cities": ["Essen"]}, "malformed_order")):
        r = table.order(other, kind="bid_up_to", **body)
        assert error_code(r) == code, (body, r.text)
    r = table.order(other, kind="bid_up_to", limit="7")
    assert r.status_code == 400 and error_code(r) == "malformed_request"
    r = table.order(other, kind="sell_everything")
    assert error_code(r) == "malformed_order"
    r = table.client.post(f"/api/games/{table.gid}/orders", headers=auth(table.tokens[opener]),
                          json={"seat": other, "kind": "bid_up_to", "limit": 7})
    assert error_code(r) == "wrong_token"
    table.act("pass", other)
    r = table.order(other, kind="bid_up_to", limit=7)
    assert error_code(r) == "not_in_auction"
    assert all(table.orders_of(s)["order"] is None for s in range(3))


# ---------------------------------------------------------------------- pass the rest of the auction
def test_passing_the_rest_of_the_auction_is_refused_in_round_one(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    waiting = ({0, 1, 2} - {table.to_act()}).pop()
    r = table.order(waiting, kind="pass_auction")
    assert r.status_code == 409 and error_code(r) == "pass_not_allowed"


def test_pass_the_rest_of_the_auction_passes_every_decision(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.until(phase_is(2, 2), "round 2's auction")
    passer = true_state(client, table.gid).order[-1]  # the last to open: it has bids to pass first
    assert table.to_act() != passer
    r = table.order(passer, kind="pass_auction")
    assert r.status_code == 200, r.text
    before = len(table.acts())
    while True:  # the others open the cheapest plant, and pass on each other's
        wait_for(lambda: table.public()["to_act"] != passer or table.public()["state"]["phase"] != 2,
                 "the order's passes")
        current = table.public()
        if current["state"]["phase"] != 2:
            break
        seat = current["to_act"]
        legal = table.view(seat)["legal"]
        table.act("pass" if current["state"]["auction"].get("plant") else legal[0], seat)
    mine = [a for s, a in table.acts()[before:] if s == passer]
    assert len(mine) >= 2 and set(mine) == {"pass"}  # passed the bids, then passed as opener
    assert len(true_state(client, table.gid).plants[passer]) == 1  # bought nothing this round
    assert table.orders_of(passer)["order"] is None  # ended with the phase


# ---------------------------------------------------------------------- power this
def test_every_player_chooses_power_at_once_applied_in_turn_order(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.until(phase_is(5, 1), "round 1's bureaucracy")
    state = true_state(client, table.gid)
    first, *later = state.order
    assert table.to_act() == first
    r = table.order(later[0], kind="power", action="power nothing")
    assert r.status_code == 200, r.text
    chosen = {}
    for seat in later:
        early = table.orders_of(seat)["early"]
        assert early["phase"] == 5 and "power nothing" in early["legal"]
        chosen[seat] = next((a for a in early["legal"] if a != "power nothing"), "power nothing")
        r = table.order(seat, kind="power", action=chosen[seat])  # the second order replaces the first
        assert r.status_code == 200 and r.json()["order"]["action"] == chosen[seat]
    assert error_code(table.order(later[0], kind="power", action="power 50 burn nothing")) == "illegal_order"
    assert error_code(table.order(later[0], kind="power", action="fly 3")) == "malformed_action"
    assert error_code(table.order(first, kind="build", cities=["Essen"], prices=[10])) == "order_not_now"
    assert table.acts()[-1][0] != later[0]  # nothing applied before its turn
    table.act("power nothing", first)
    wait_for(lambda: table.public()["state"]["phase"] == 2, "the orders, then round 2")
    assert table.acts()[-3:] == [(first, "power nothing")] + [(seat, chosen[seat]) for seat in later]
    r = table.order(first, kind="power", action="power nothing")
    assert error_code(r) == "order_not_now"
    assert all(table.orders_of(s)["order"] is None for s in range(3))


def test_a_power_order_is_refused_once_the_seat_has_chosen(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    table.until(phase_is(5, 1), "round 1's bureaucracy")
    first = table.to_act()
    table.act("power nothing", first)
    r = table.order(first, kind="power", action="power nothing")
    assert r.status_code == 409 and error_code(r) == "already_acted"


# ---------------------------------------------------------------------- planned builds
def _build_setup(client: TestClient) -> tuple[Table, list[int], list[str]]:
    """Round 1's build phase, the builders in their order, and cities in play (all at 10 now)."""
    table = Table(client, create(client, 3))
    table.until(phase_is(4, 1), "round 1's build phase")
    builders = list(true_state(client, table.gid).order)[::-1]  # build goes in reverse player order
    assert table.to_act() == builders[0]
    costs = table.orders_of(builders[-1])["early"]["build_costs"]
    assert set(costs.values()) == {10}
    return table, builders, sorted(costs)


def test_a_planned_build_is_applied_when_every_price_holds(client: TestClient) -> None:
    table, (first, second, last), cities_in_play = _build_setup(client)
    state = true_state(client, table.gid)
    start = cities_in_play[0]
    near = min((c for c in cities_in_play[1:-1] if plan_prices(state, second, [start, c])[1] is None),
               key=lambda c: plan_prices(state, second, [start, c])[0][1])
    cities = [start, near]
    prices, why = plan_prices(state, second, cities)
    assert why is None and prices[0] == 10 and prices[1] > 10  # the second one pays a connection
    r = table.order(second, kind="build", cities=cities, prices=[10, prices[1] + 1])
    assert r.status_code == 409 and error_code(r) == "price_changed"
    r = table.order(second, kind="build", cities=cities, prices=prices)
    assert r.status_code == 200, r.text
    assert r.json()["order"]["total"] == sum(prices)
    money = true_state(client, table.gid).money[second]
    table.act(f"build {cities_in_play[-1]}", first)
    table.act("done", first)
    wait_for(lambda: table.to_act() == last, "the planned build")
    assert table.acts()[-3:] == [(second, f"build {cities[0]}"), (second, f"build {cities[1]}"),
                                 (second, "done")]
    assert true_state(client, table.gid).money[second] == money - sum(prices)
    assert table.orders_of(second)["order"] is None


def test_a_planned_build_is_refused_when_a_price_changed(client: TestClient) -> None:
    table, (first, second, last), cities = _build_setup(client)
    city, other = cities[0], cities[1]
    r = table.order(last, kind="build", cities=[city], prices=[10])
    assert r.status_code == 200, r.text
    table.act(f"build {city}", first)  # Step 1: the city's only slot is taken
    table.act("done", first)
    table.act("done", second)
    refused = wait_for(lambda: (table.orders_of(last)["order"] or {}).get("status") == "refused"
                       and table.orders_of(last)["order"], "the refusal")
    assert refused["refusal"]["code"] == "price_changed"
    assert f"{city} is not open" in refused["refusal"]["message"]
    assert table.to_act() == last  # asked as usual
    assert table.acts()[-1] == (second, "done")
    assert table.cancel(last).status_code == 200  # the refusal read and cleared
    assert table.orders_of(last)["order"] is None
    price = plan_prices(true_state(client, table.gid), last, [other])[0]
    r = table.order(last, kind="build", cities=[other], prices=price)
    assert r.status_code == 200, r.text  # placed during its own turn: applied at once
    wait_for(lambda: table.public()["state"]["phase"] == 5, "the build")
    assert table.acts()[-2:] == [(last, f"build {other}"), (last, "done")]


def test_illegal_build_orders_are_refused_by_name(client: TestClient) -> None:
    table, (first, second, last), cities = _build_setup(client)
    for body, code in (({"cities": ["Atlantis"], "prices": [10]}, "illegal_order"),
                       ({"cities": [cities[0], cities[0]], "prices": [10, 10]}, "illegal_order"),
                       ({"cities": [cities[0]], "prices": [10, 12]}, "malformed_order"),
                       ({"cities": [], "prices": []}, "malformed_order")):
        r = table.order(last, kind="build", **body)
        assert error_code(r) == code, (body, r.text)
    table.act("done", first)
    r = table.order(first, kind="build", cities=[cities[0]], prices=[10])
    assert error_code(r) == "already_acted"


# ---------------------------------------------------------------------- cancel, restart
def test_a_cancelled_order_is_never_applied(client: TestClient) -> None:
    table = Table(client, create(client, 3))
    opener = table.to_act()
    table.act("open 3 3", opener)
    bidder = table.to_act()
    other = ({0, 1, 2} - {opener, bidder}).pop()
    placed = table.order(other, kind="bid_up_to", limit=20).json()["order"]
    r = table.cancel(other, placed["id"])
    assert r.status_code == 200 and r.json()["order"] is None
    assert error_code(table.cancel(other)) == "no_order"
    seen = table.act("bid 4", bidder)
    wait_for(lambda: table.to_act() == other, "its turn")
    assert table.view(other)["version"] == seen["version"]  # it is asked, nothing was played for it
    with db.make_engine(client.app.state.settings.database_url).connect() as conn:  # type: ignore[attr-defined]
        assert conn.execute(select(orders_table).where(orders_table.c.game_id == table.gid)).first() is None
    table.act("pass", other)


def test_orders_outlive_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        table = Table(client, create(client, 3))
        table.until(phase_is(5, 1), "round 1's bureaucracy")
        first, second, third = true_state(client, table.gid).order
        assert table.order(second, kind="power", action="power nothing").status_code == 200
        assert table.order(third, kind="power", action="power nothing").status_code == 200
    with TestClient(create_app(settings)) as client, bot_worker(settings):  # a new process, new worker
        table.client = client
        assert table.orders_of(second)["order"]["action"] == "power nothing"
        table.act("power nothing", first)
        wait_for(lambda: table.public()["state"]["phase"] == 2, "the orders after the restart")
        assert table.acts()[-2:] == [(second, "power nothing"), (third, "power nothing")]


def test_an_order_meets_a_bots_turn_before_it(settings: Settings) -> None:
    """A bot's move (appended by a worker) makes it a person's turn: that worker queues the person's
    order. The worker here does one job at a time, when told, so the orders are surely in place."""
    from powergrid.server.bots.bot_worker import BotWorker

    with TestClient(create_app(settings)) as client:
        worker = BotWorker(settings, ["quick"], name="stepping-worker")

        def work_one() -> str:
            job = wait_for(lambda: worker.queue.claim(worker.name, ["quick"]), "a queued job")
            worker.work(job)
            return str(job.kind)

        game = create(client, 3, seed=12,
                      seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}])
        table = Table(client, game)
        for _ in range(300):
            current = table.public()
            if current["state"]["phase"] == 5 and current["to_act"] == 1:
                break
            if current["to_act"] == 1:
                work_one()
            else:
                table.calm_step()
        else:
            raise AssertionError("round 1's bureaucracy never began with the bot to act")
        first, second, third = true_state(client, table.gid).order
        assert first == 1  # the bot chooses first, then the people
        for seat in (second, third):
            r = table.order(seat, kind="power", action="power nothing")
            assert r.status_code == 200, r.text
        assert work_one() == "bot_turn"
        assert work_one() == "standing_order"  # queued by the worker that moved for the bot
        assert work_one() == "standing_order"  # queued by the job before it
        assert table.public()["state"]["phase"] == 2
        assert table.acts()[-2:] == [(second, "power nothing"), (third, "power nothing")]
        worker.keeper.stop()
        worker.engine.dispose()


def test_the_migration_makes_the_orders_table(database_url: str) -> None:
    engine = db.make_engine(database_url)
    db.migrate(engine)
    with engine.connect() as conn:
        assert conn.execute(select(orders_table)).all() == []
    engine.dispose()
    assert pg.Phase.BUREAUCRACY == 5


def test_the_look_after_appends_finds_only_the_asked_seats_pending_orders(client: TestClient) -> None:
    """One look serves a batch of appends: it is asked by game, and must answer only the seats asked."""
    table, quiet = Table(client, create(client, 3)), Table(client, create(client, 3))
    opener = table.to_act()
    table.act("open 3 3", opener)
    bidder = table.to_act()
    other = ({0, 1, 2} - {opener, bidder}).pop()
    placed = table.order(other, kind="bid_up_to", limit=20).json()["order"]
    engine = db.make_engine(client.app.state.settings.database_url)  # type: ignore[attr-defined]
    try:
        found = order_store.pending_of(engine, [(table.gid, bidder), (quiet.gid, other), (table.gid, other)])
        assert list(found) == [(table.gid, other)] and found[(table.gid, other)].id == placed["id"]
        assert order_store.pending_of(engine, [(table.gid, opener), (quiet.gid, other)]) == {}
    finally:
        engine.dispose()


def test_an_order_in_a_timed_game_runs_the_seats_clock_and_sets_the_next_persons_deadline(
        settings: Settings) -> None:
    """The worker's move for an order is the seat's own: stored with its time (the seat's clock
    runs to it and earns the increment), and the next person's deadline is queued as after any
    action."""
    from dataclasses import replace

    from powergrid.server.common.clock import ManualClock
    from powergrid.server.games import absence

    clock = ManualClock(1_800_000_000.0)
    timed = replace(settings, clock=clock)
    with TestClient(create_app(timed)) as client, bot_worker(timed):
        table = Table(client, create(client, 3, time_control={"kind": "live", "bank_s": 600,
                                                               "increment_s": 10}))
        opener = table.to_act()
        table.act("open 3 3", opener)
        bidder = table.to_act()
        limit_seat = ({0, 1, 2} - {opener, bidder}).pop()
        assert table.order(limit_seat, kind="bid_up_to", limit=5).status_code == 200
        clock.advance(4.0)
        table.act("bid 4", bidder)
        wait_for(lambda: table.to_act() == opener, "the order's bid")
        engine = db.make_engine(timed.database_url)
        try:
            with engine.connect() as conn:
                a, j = db.actions, db.jobs
                seq, at = conn.execute(select(a.c.seq, a.c.at).where(a.c.game_id == table.gid)
                                       .order_by(a.c.seq.desc()).limit(1)).one()
                deadlines = conn.execute(select(j.c.version, j.c.payload).where(
                    j.c.game_id == table.gid, j.c.kind == absence.DEADLINE, j.c.status == "queued")).all()
        finally:
            engine.dispose()
        assert at == clock.now()  # stored with the server's time of the move
        payloads = [json.loads(p) if isinstance(p, str) else p for v, p in deadlines if v == seq]
        assert [p["seat"] for p in payloads] == [opener]  # the next person's deadline, as after any action
        shown = table.public()["clocks"]
        assert shown["running"] == opener
        assert shown["seats"][limit_seat]["left_s"] == pytest.approx(610.0)  # the increment, no time spent
