"""One convention everywhere in the public API, held by walking ``toolkit.__all__``.

* a count of shoes is ``n_shoes`` (``shoes`` names shoes themselves: arrays, frames, lists of sizes);
* ``workers`` defaults to ``None`` (every core), in the library and at the command line alike;
* frames number shoes from 1, as they number coups (the arrays of :class:`toolkit.DealtShoes` index them from 0);
* ``player_cards`` is the number of cards in Player's hand (as in bet conditions and the exact engine's frames),
  and ``player_hand`` the list of those cards.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator

import numpy as np
import polars as pl
import pytest
import typer

import toolkit as bt
from toolkit.cli.app import app


def _callables() -> Iterator[tuple[str, Callable]]:
    """Every public function, class and public method of a public class, with its name."""
    for name in bt.__all__:
        obj = getattr(bt, name)
        if not callable(obj):
            continue
        yield name, obj
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and inspect.isfunction(member):
                    yield f"{name}.{attr}", member


def _parameters(name: str) -> list[tuple[str, inspect.Parameter]]:
    found = []
    for where, obj in _callables():
        try:
            signature = inspect.signature(obj)
        except (TypeError, ValueError):
            continue
        found += [(where, p) for p in signature.parameters.values() if p.name == name]
    return found


def _is_a_count(p: inspect.Parameter) -> bool:
    annotation = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
    bare = annotation.replace(" ", "")
    return bare in ("int", "int|None") or (isinstance(p.default, int) and not isinstance(p.default, bool))


def test_a_count_of_shoes_is_always_n_shoes() -> None:
    counts = _parameters("n_shoes")
    assert len(counts) >= 15, counts  # the walk reaches the API: deal, the studies, the simulations...
    assert all(_is_a_count(p) for _, p in counts), [w for w, p in counts if not _is_a_count(p)]
    wrong = [where for where, p in _parameters("shoes") if _is_a_count(p)]
    assert not wrong, f"a count of shoes named 'shoes' (the convention is n_shoes): {wrong}"


def test_workers_default_to_every_core_in_the_library() -> None:
    workers = _parameters("workers")
    assert len(workers) >= 12, workers
    defaults = {where: p.default for where, p in workers}
    assert set(defaults.values()) == {None}, {w: d for w, d in defaults.items() if d is not None}


def _cli_workers() -> dict[str, object]:
    """The default of ``--workers`` of every command (and subcommand) that has it."""
    out = {}

    def walk(command: object, path: tuple[str, ...]) -> None:
        for name, sub in (getattr(command, "commands", None) or {}).items():
            walk(sub, (*path, name))
        for param in getattr(command, "params", []):
            if param.name == "workers":
                out[" ".join(path)] = param.default

    walk(typer.main.get_command(app), ())
    return out


def test_workers_default_to_every_core_at_the_command_line() -> None:
    defaults = _cli_workers()
    assert {"simulate", "thorp", "assess", "shuffle", "cut-card"} <= set(defaults), sorted(defaults)
    assert set(defaults.values()) == {None}, defaults


def _frames() -> dict[str, pl.DataFrame]:
    """What the public functions that number shoes return, on a few small shoes."""
    dealt = bt.deal(3, seed=1, progress=False)
    records = bt.records_from_dealt(dealt)
    simulated = bt.simulate_records(3, seed=2)
    return {
        "deal().frame()": dealt.frame(),
        "with_counts": bt.with_counts(dealt, ["dragon7"]),
        "records_from_dealt().coups": records.coups,
        "records_from_dealt().shoes": records.shoes,
        "records_from_dealt().cards": records.cards,
        "replay_records": bt.replay_records(records),
        "simulate_records().coups": simulated.coups,
        "records_from_orders().coups": bt.records_from_orders(bt.shuffled_shoes(3, seed=3)).coups,
        "simulate_table().coups": bt.simulate_table(3, [], seed=4).coups,
        "edge_sorter_shoes": bt.edge_sorter_shoes(3, seed=5),
    }


@pytest.fixture(scope="module")
def frames() -> dict[str, pl.DataFrame]:
    return _frames()


def test_frames_number_shoes_from_one(frames: dict[str, pl.DataFrame]) -> None:
    for where, frame in frames.items():
        shoes = frame["shoe"].unique(maintain_order=True).to_list()
        assert shoes == [1, 2, 3], f"{where} numbers its shoes {shoes}"


def test_frames_of_a_later_block_go_on_numbering() -> None:
    """A block of shoes dealt after ``first_shoe`` others numbers its shoes after theirs, from ``first_shoe + 1``."""
    block = bt.deal_block(bt.shuffled_shoes(2, seed=6), first_shoe=5)
    assert block.frame()["shoe"].unique(maintain_order=True).to_list() == [6, 7]
    assert np.array_equal(np.unique(block.shoe), [5, 6])  # the arrays index shoes from 0


def test_player_cards_counts_the_cards_and_player_hand_lists_them(frames: dict[str, pl.DataFrame]) -> None:
    exact = {"distribution_frame": bt.distribution_frame(8), "outcome_frame": bt.outcome_frame()}
    seen = {"player_cards": 0, "player_hand": 0}
    for where, frame in {**frames, **exact}.items():
        for side in ("player", "banker"):
            if f"{side}_cards" in frame.columns:
                seen["player_cards"] += 1
                assert frame[f"{side}_cards"].dtype.is_integer(), f"{where}: {side}_cards is not a count"
                assert set(frame[f"{side}_cards"].unique().to_list()) <= {2, 3}, where
            if f"{side}_hand" in frame.columns:
                seen["player_hand"] += 1
                assert isinstance(frame[f"{side}_hand"].dtype, pl.List), f"{where}: {side}_hand is not a list"
    assert seen["player_cards"] >= 4, seen
    assert seen["player_hand"] >= 6, seen
    assert bt.Outcome.__dataclass_fields__["player_cards"].type in (int, "int")
