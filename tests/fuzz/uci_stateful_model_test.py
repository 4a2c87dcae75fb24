#!/usr/bin/env python3
"""The stateful UCI fuzzer's model of the protocol (fuzz/uci_stateful.py), checked without an engine.

    python3 tests/fuzz/uci_stateful_model_test.py

A wrong model is a false alarm after hours of fuzzing: seed 7 stopped at command 2,002,221 on
`go depth 5 searchmoves c2c3 searchmoves c2c4 a2a4` because the model kept only the first list while the
engine (like Stockfish) searches every move named after a `searchmoves`. Exit status 1 on any failure.
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz"))
from uci_stateful import searchmoves_of  # noqa: E402


class SearchmovesOf(unittest.TestCase):
    def test_none(self):
        self.assertEqual(searchmoves_of("go depth 5".split()), [])

    def test_one_list_up_to_the_next_parameter(self):
        self.assertEqual(searchmoves_of("go searchmoves e2e4 d2d4 depth 3".split()), ["e2e4", "d2d4"])

    def test_parameter_values_are_not_moves(self):
        self.assertEqual(searchmoves_of("go depth 5 searchmoves g1f3 nodes 100".split()), ["g1f3"])

    def test_repeated_lists_add_up(self):  # the seed-7 false alarm
        self.assertEqual(searchmoves_of("go depth 5 searchmoves c2c3 searchmoves c2c4 a2a4".split()),
                         ["c2c3", "c2c4", "a2a4"])

    def test_lists_split_by_other_parameters_add_up(self):
        self.assertEqual(searchmoves_of("go searchmoves e2e4 movetime 10 searchmoves d2d4".split()),
                         ["e2e4", "d2d4"])


if __name__ == "__main__":
    unittest.main()
