#!/usr/bin/env python3
"""The Python UCI driver (tools/uci_engine/) against engines that misbehave on purpose and against Quince.

    tests/tools/uci_engine_test.py QUINCE FAKE_ENGINE

FAKE_ENGINE is tests/tools/fake_engine (quince_fake_engine): it crashes, never answers `uci`, never sends
its bestmove or sleeps in a search when asked. Every wait here has a deadline of a few seconds, so a driver
that hangs fails the test (by its ctest timeout at worst) instead of passing slowly; no wall-clock bound
is asserted. Exit status 1 on any failure.
"""
import os
import sys
import unittest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(ROOT, "tools"))
import uci_engine  # noqa: E402
from uci_engine import Engine, EngineError, SearchResult, parse_info  # noqa: E402

QUINCE = FAKE = None
SHORT = 10.0  # seconds: the deadline of an answer owed at once (a wait that must time out gets 0.5)


def fake(*args, **kw):
    return Engine([FAKE, *args], name="fake", timeout=30, **kw)


class ParseInfo(unittest.TestCase):
    def test_fields(self):
        info = parse_info("info depth 12 seldepth 18 multipv 1 score cp -35 upperbound wdl 100 800 100 "
                          "nodes 12345 nps 99 hashfull 3 tbhits 0 time 50 pv e2e4 e7e5 g1f3")
        self.assertEqual(info["depth"], 12)
        self.assertEqual(info["seldepth"], 18)
        self.assertEqual(info["score"], ("cp", -35))
        self.assertEqual(info["bound"], "upperbound")
        self.assertEqual(info["wdl"], (100, 800, 100))
        self.assertEqual((info["nodes"], info["nps"], info["hashfull"], info["tbhits"], info["time"]),
                         (12345, 99, 3, 0, 50))
        self.assertEqual(info["pv"], ["e2e4", "e7e5", "g1f3"])

    def test_mate_and_fields_after_the_pv(self):
        info = parse_info("info depth 5 score mate -2 pv h7h8q g8h8 nodes 10")
        self.assertEqual(info["score"], ("mate", -2))
        self.assertEqual(info["pv"], ["h7h8q", "g8h8"])
        self.assertEqual(info["nodes"], 10)

    def test_string_is_the_rest_of_the_line(self):
        self.assertEqual(parse_info("info string depth 3 is only text")["string"], "depth 3 is only text")
        self.assertNotIn("depth", parse_info("info string depth 3 is only text"))

    def test_values_that_do_not_parse_are_left_out(self):
        info = parse_info("info depth x nodes 5 score cp 1e3 time")
        self.assertEqual(info, {"nodes": 5})


class Result(unittest.TestCase):
    def test_last_exact_principal_score(self):
        r = SearchResult(["info depth 1 score cp 10 nodes 20 pv e2e4",
                          "info depth 2 multipv 1 score cp 30 nodes 50 pv d2d4 d7d5",
                          "info depth 2 multipv 2 score cp 5 nodes 60 pv e2e4",
                          "info depth 3 score cp 90 lowerbound nodes 70 pv d2d4",
                          "info nodes 80 time 5",
                          "bestmove d2d4 ponder d7d5"])
        self.assertEqual((r.bestmove, r.ponder), ("d2d4", "d7d5"))
        self.assertEqual((r.score, r.depth, r.pv), (("cp", 30), 2, ["d2d4", "d7d5"]))
        self.assertEqual(r.nodes, 80)  # the last count: the search's total

    def test_no_info(self):
        r = SearchResult(["bestmove (none)"])
        self.assertEqual((r.bestmove, r.ponder, r.score, r.depth, r.nodes, r.pv), ("(none)", None, None, None, None, []))

    def test_go_limits(self):
        self.assertEqual(uci_engine.go_limits(depth=8), "depth 8")
        self.assertEqual(uci_engine.go_limits("ponder", wtime=100, btime=200), "ponder wtime 100 btime 200")
        self.assertEqual(uci_engine.go_limits(infinite=True, searchmoves=["e2e4", "d2d4"]),
                         "infinite searchmoves e2e4 d2d4")


class FakeEngine(unittest.TestCase):
    def test_a_normal_session(self):
        with fake("--score", "37") as e:
            lines = e.handshake(SHORT)
            self.assertEqual(lines[0], "id name FakeEngine normal")
            e.set_option("Hash", 4)
            e.isready(SHORT)
            e.new_game()
            e.position("startpos", ["e2e4"])
            r = e.go(depth=1, timeout=SHORT)
            self.assertEqual(r.lines[-1], "bestmove " + r.bestmove)
            self.assertEqual((r.score, r.depth, r.nodes, r.pv), (("cp", 37), 1, 1, [r.bestmove]))
            e.position("8/8/8/8/8/2k5/8/K7 w - - 0 1")  # a bare FEN: the king's two moves
            self.assertIn(e.go("depth 1", SHORT).bestmove, ("a1a2", "a1b1"))
        self.assertEqual(e.proc.returncode, 0)  # quit on leaving the block

    def test_mate_score(self):
        with fake("--mate-when", "w") as e:
            e.setup()
            e.position()
            self.assertEqual(e.go(depth=1, timeout=SHORT).score, ("mate", 3))

    def test_raw_lines(self):
        with fake() as e:
            e.send("position startpos moves e2e4 nonsense")
            e.send("xyzzy 1 2 3")  # unknown command: no answer
            self.assertIsNone(e.read_line(0.2))
            e.send("isready")
            self.assertEqual(e.read_line(SHORT), "readyok")
            e.send("go depth 1")
            self.assertEqual(e.wait_for(("bestmove", "info"), SHORT)[-1][:4], "info")
            self.assertTrue(e.read_line(SHORT).startswith("bestmove "))

    def test_many_lines_before_bestmove(self):
        with fake("--mode", "spam") as e:
            e.setup()
            e.position()
            r = e.go(depth=1, timeout=60)
            self.assertEqual(len(r.lines), 20002)
            self.assertEqual(r.nodes, 1)

    def test_an_engine_that_never_answers_uci(self):
        e = fake("--mode", "silent-start")
        with self.assertRaises(EngineError) as c:
            e.handshake(0.5)
        self.assertIn("no 'uciok' within 0.5 s", str(c.exception))
        self.assertEqual(e.close(SHORT), 0)  # it still reads quit

    def test_an_engine_that_never_sends_bestmove(self):
        with fake("--mode", "nobestmove") as e:
            e.setup()
            e.position()
            with self.assertRaises(EngineError) as c:
                e.go(depth=1, timeout=0.5)
            self.assertIn("no 'bestmove' within 0.5 s", str(c.exception))
            e.isready(SHORT)  # still alive and answering

    def test_an_engine_that_dies_in_a_search(self):
        e = fake("--mode", "crash")
        e.setup()
        e.position()
        with self.assertRaises(EngineError) as c:
            e.go(depth=1, timeout=SHORT)
        self.assertIn("output ended (the engine died?) exit status 3", str(c.exception))
        with self.assertRaises(EngineError):
            e.read_line(0.1)
        with self.assertRaises(EngineError):
            for _ in range(100):  # the pipe's end may take a write to notice
                e.send("isready")
        self.assertEqual(e.close(SHORT), 3)

    def test_the_lines_before_a_death_are_kept(self):
        e = fake("--mode", "crash", stderr="pipe")
        e.send("uci")
        e.send("go depth 1")
        with self.assertRaises(EngineError) as c:
            e.wait_for("bestmove", SHORT)
        self.assertEqual(c.exception.lines[-1], "uciok")
        e.close(SHORT)

    def test_an_engine_busy_in_a_search_is_killed_on_close(self):
        e = fake("--mode", "slow", "--delay", "600000")
        e.setup()
        e.position()
        e.go(depth=1, wait=False)
        with self.assertRaises(EngineError) as c:
            e.quit(0.5)
        self.assertIn("did not exit within 0.5 s of quit (killed)", str(c.exception))
        self.assertIsNotNone(e.proc.poll())
        self.assertEqual(e.close(), e.proc.returncode)  # closing again is harmless

    def test_the_with_block_kills_a_hung_engine(self):
        with fake("--mode", "slow", "--delay", "600000") as e:
            e.timeout = 0.5
            e.setup()
            e.position()
            e.go(depth=1, wait=False)
        self.assertLess(e.proc.returncode, 0)  # killed by a signal

    def test_the_end_of_input(self):
        e = fake()
        e.close_input()  # the fake ends at the end of its input
        self.assertEqual(e.rest(SHORT), [])
        self.assertEqual(e.close(SHORT), 0)

    def test_a_missing_binary(self):
        with self.assertRaises(EngineError) as c:
            Engine(os.path.join(ROOT, "no-such-engine"), name="missing")
        self.assertIn("missing: cannot start", str(c.exception))


class Quince(unittest.TestCase):
    def test_a_search(self):
        with Engine(QUINCE, name="quince", stderr="pipe") as e:
            e.setup([("Hash", 8), ("Threads", 1)])
            e.position("startpos", ["e2e4", "e7e5"])
            r = e.go(depth=6)
            self.assertEqual(r.depth, 6)
            self.assertEqual(r.score[0], "cp")
            self.assertGreater(r.nodes, 0)
            self.assertEqual(r.pv[0], r.bestmove)
            e.go(infinite=True, wait=False)
            e.isready()  # answered during the search
            self.assertIsNotNone(e.stop().bestmove)
            self.assertEqual(e.quit(), 0)

    def test_an_error_is_read_as_a_line(self):
        with Engine(QUINCE, name="quince") as e:
            e.setup()
            e.position("startpos", ["e2e5"])
            lines = e.isready()
            self.assertTrue(any(l.startswith("info string error") and "e2e5" in l for l in lines), lines)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    QUINCE, FAKE = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=sys.argv[:1], verbosity=2)
