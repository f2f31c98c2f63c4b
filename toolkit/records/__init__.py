"""Recorded shoes: reading, checking against the tableau, writing, replaying and testing for randomness.

Modules
-------
:mod:`~toolkit.records.header`
    :class:`ShoeHeader`: the dealing and house rules of a record, and its ``key=value`` text.
:mod:`~toolkit.records.model`
    :class:`Records`: the valid shoes of a record, with the report of the rest.
:mod:`~toolkit.records.read`, :mod:`~toolkit.records.write`
    The file formats (layouts and containers); reading files and frames, writing them back.
:mod:`~toolkit.records.simulate`
    Records of simulated shoes, of complete shoe orders and of dealt shoes.
:mod:`~toolkit.records.validation`
    The problems a record can have, and the report.
:mod:`~toolkit.records.replay`
    Exact edges and counts coup by coup; the edges of recorded bets.
:mod:`~toolkit.records.randomness`, :mod:`~toolkit.records.roads`
    Randomness tests of recorded shoes; the bead plate and the big road.
"""

from toolkit.records.header import HEADER_KEYS, ShoeHeader
from toolkit.records.model import LAYOUTS, Records
from toolkit.records.randomness import (
    TestResult,
    baseline,
    cut_card_test,
    deck_mixing_test,
    frequency_test,
    randomness_tests,
    repeated_sequences,
    runs_test,
    streak_test,
)
from toolkit.records.read import read_bets, read_records, records_from_frame
from toolkit.records.replay import TrackingResult, bet_edges, replay_records, tracking_test
from toolkit.records.roads import bead_plate, big_road, road_strings
from toolkit.records.simulate import records_from_dealt, records_from_orders, simulate_records
from toolkit.records.validation import Problem, RecordError, ValidationReport
from toolkit.records.write import layout_frame, write_records

__all__ = (
    "HEADER_KEYS",
    "LAYOUTS",
    "Problem",
    "RecordError",
    "Records",
    "ShoeHeader",
    "TestResult",
    "TrackingResult",
    "ValidationReport",
    "baseline",
    "bead_plate",
    "bet_edges",
    "big_road",
    "cut_card_test",
    "deck_mixing_test",
    "frequency_test",
    "layout_frame",
    "randomness_tests",
    "read_bets",
    "read_records",
    "records_from_dealt",
    "records_from_frame",
    "records_from_orders",
    "repeated_sequences",
    "replay_records",
    "road_strings",
    "runs_test",
    "simulate_records",
    "streak_test",
    "tracking_test",
    "write_records",
)
