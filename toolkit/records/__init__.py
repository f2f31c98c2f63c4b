"""Recorded shoes: reading, checking against the tableau, writing, replaying and testing for randomness."""

from toolkit.records.model import LAYOUTS, Records, ShoeHeader, read_bets, read_records, records_from_dealt, records_from_frame, records_from_orders, simulate_records, write_records
from toolkit.records.validation import Problem, RecordError, ValidationReport
from toolkit.records.replay import TrackingResult, bet_edges, replay, tracking_test
from toolkit.records.randomness import TestResult, bead_plate, big_road, cut_card_test, deck_mixing_test, frequency_test, randomness_tests, repeated_sequences, runs_test, streak_test

__all__ = (
    "LAYOUTS",
    "Problem",
    "RecordError",
    "Records",
    "ShoeHeader",
    "TestResult",
    "TrackingResult",
    "ValidationReport",
    "bead_plate",
    "bet_edges",
    "big_road",
    "cut_card_test",
    "deck_mixing_test",
    "frequency_test",
    "randomness_tests",
    "read_bets",
    "read_records",
    "records_from_dealt",
    "records_from_frame",
    "records_from_orders",
    "repeated_sequences",
    "replay",
    "runs_test",
    "simulate_records",
    "streak_test",
    "tracking_test",
    "write_records",
)
