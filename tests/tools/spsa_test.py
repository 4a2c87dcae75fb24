#!/usr/bin/env python3
"""strength/spsa.py without an engine: its update rule and gain schedules against a fake match function,
its reading of OpenBench's SPSA input lines, a run resumed from its state file, and one started again from
the text it prints."""

import importlib.util
import io
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = importlib.util.spec_from_file_location("spsa", os.path.join(HERE, "..", "..", "strength", "spsa.py"))
spsa = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(spsa)


def start(values, iterations=100, r_end=0.002):
    params = [{"name": n, "value": float(v), "min": 0, "max": 1000, "c_end": 10.0, "r_end": r_end}
              for n, v in values.items()]
    return {"iteration": 0, "iterations": iterations, "seed": 1, "games": 0, "params": params}


def toward(target):
    """A fake match: the side whose values are closer to `target` wins both games of one pair."""
    def match(plus, minus):
        dp = sum(abs(plus[n] - t) for n, t in target.items())
        dm = sum(abs(minus[n] - t) for n, t in target.items())
        return (2, 0, 0) if dp < dm else (0, 2, 0) if dp > dm else (0, 0, 2)
    return match


class Spsa(unittest.TestCase):
    def test_runs_as_a_command(self):
        self.assertTrue(os.access(SPEC.origin, os.X_OK), "strength/README.md runs strength/spsa.py directly")

    def test_fixed_options_reach_both_sides(self):
        args = spsa.argparse.Namespace(match="qm", engine="q", tc="1+0.01", option=["SearchEnable=cand"],
                                       pairs=2, concurrency=1)
        cmd = spsa.match_command(args, {"LmrHistDiv": 4000}, {"LmrHistDiv": 6000})
        each = cmd.index("-each")
        self.assertIn("option.LmrHistDiv=4000", cmd[:cmd.index("name=minus")])
        self.assertIn("option.LmrHistDiv=6000", cmd[cmd.index("name=minus"):each])
        self.assertIn("option.SearchEnable=cand", cmd[each:])
        with self.assertRaises(SystemExit):
            spsa.main(["--engine", "q", "--state", "s.json", "--option", "SearchEnable"])

    def test_nodes_replace_the_clock(self):
        args = spsa.argparse.Namespace(match="qm", engine="q", tc="1+0.01", nodes=25000, option=[], pairs=1,
                                       concurrency=1)
        cmd = spsa.match_command(args, {}, {})
        self.assertIn("nodes=25000", cmd)
        self.assertFalse(any(c.startswith("tc=") for c in cmd))
        args.nodes = 0
        self.assertIn("tc=1+0.01", spsa.match_command(args, {}, {}))
        with self.assertRaises(SystemExit):
            spsa.main(["--engine", "q", "--state", "s.json", "--nodes", "-5"])

    def test_parse_lines(self):
        p = spsa.parse_spsa_lines(["AspDelta, int, 15, 5, 40, 2, 0.002", ""])
        self.assertEqual(p, [{"name": "AspDelta", "value": 15.0, "min": 5, "max": 40, "c_end": 2.0, "r_end": 0.002}])
        with self.assertRaises(ValueError):
            spsa.parse_spsa_lines(["AspDelta, float, 15"])

    def test_gains_end_at_c_end_and_r_end(self):
        p = start({"X": 100}, 50)["params"][0]
        c_k, r_k = spsa.gains(p, 49, 50)
        self.assertAlmostEqual(c_k, 10.0)
        self.assertAlmostEqual(r_k, 0.002 * ((5 + 50) / (5 + 50)) ** 0.602)
        c_0, _ = spsa.gains(p, 0, 50)
        self.assertGreater(c_0, c_k)  # perturbations shrink over the run

    def test_one_step_is_r_c_result_delta(self):
        state = start({"X": 100})
        seen = {}

        def match(plus, minus):
            seen.update(plus=plus["X"], minus=minus["X"])
            return (3, 1, 0)  # plus wins by 2
        c_k, r_k = spsa.gains(state["params"][0], 0, 100)
        spsa.iterate(state, match)
        delta = 1 if seen["plus"] > seen["minus"] else -1
        self.assertEqual(seen["plus"], round(100 + c_k * delta))
        self.assertEqual(seen["minus"], round(100 - c_k * delta))
        self.assertAlmostEqual(state["params"][0]["value"], 100 + r_k * c_k * 2 * delta)
        self.assertEqual(state["iteration"], 1)
        self.assertEqual(state["games"], 4)

    def test_rate_scale_multiplies_the_step(self):
        state = start({"X": 100})
        state["rate_scale"] = 10.0
        seen = {}

        def match(plus, minus):
            seen.update(plus=plus["X"], minus=minus["X"])
            return (3, 1, 0)
        c_k, r_k = spsa.gains(state["params"][0], 0, 100)
        spsa.iterate(state, match)
        delta = 1 if seen["plus"] > seen["minus"] else -1
        self.assertAlmostEqual(state["params"][0]["value"], 100 + 10 * r_k * c_k * 2 * delta)

    def test_draws_leave_theta(self):
        state = start({"X": 100, "Y": 7})
        spsa.iterate(state, lambda plus, minus: (0, 0, 2))
        self.assertEqual([p["value"] for p in state["params"]], [100.0, 7.0])

    def test_values_move_toward_the_better_settings(self):
        state = start({"X": 300, "Y": 700}, 300, r_end=0.1)  # a larger rate than real tuning: few games
        target = {"X": 500, "Y": 500}
        for _ in range(300):
            spsa.iterate(state, toward(target))
        x, y = (p["value"] for p in state["params"])
        self.assertLess(abs(x - 500), 50)  # from 200 away
        self.assertLess(abs(y - 500), 50)

    def test_bounds_hold(self):
        state = start({"X": 1})
        for _ in range(20):
            spsa.iterate(state, toward({"X": -1000}))
        self.assertGreaterEqual(state["params"][0]["value"], 0)

    def test_resumed_run_follows_the_same_path(self):
        whole = start({"X": 300, "Y": 700}, 40)
        for _ in range(40):
            spsa.iterate(whole, toward({"X": 500, "Y": 500}))
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "state.json")
            part = start({"X": 300, "Y": 700}, 40)
            for _ in range(15):
                spsa.iterate(part, toward({"X": 500, "Y": 500}))
            spsa.save(path, part)

            class Args:
                iterations, seed = 999, 5  # the file's settings win
            resumed = spsa.load_or_start(path, [], Args)
            self.assertEqual(resumed["iteration"], 15)
            while resumed["iteration"] < resumed["iterations"]:
                spsa.iterate(resumed, toward({"X": 500, "Y": 500}))
        for a, b in zip(whole["params"], resumed["params"]):
            self.assertAlmostEqual(a["value"], b["value"])

    def test_printed_state_restarts_the_run(self):
        """A run whose state file is lost goes on from the last block its log printed, along the same path."""
        whole = start({"X": 300, "Y": 700}, 40)
        for _ in range(40):
            spsa.iterate(whole, toward({"X": 500, "Y": 500}))
        part = start({"X": 300, "Y": 700}, 40)
        log = io.StringIO()
        for _ in range(15):
            spsa.iterate(part, toward({"X": 500, "Y": 500}))
            log.write(f"iteration {part['iteration']}: plus 2 - 0 - 0\n")
            if part["iteration"] in (5, 15):
                spsa.print_values(part, log)
        self.assertIn("iteration 15 of 40, 30 games, seed 1, rate scale 1\n", log.getvalue())
        log.write("iteration 16: plus 1 - 1 - 0\n")  # played, but its state was never printed
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "run.log")
            with open(path, "w") as f:
                f.write(log.getvalue())

            class Args:
                iterations, seed, rate_scale = 999, 5, 3.0  # the printed header wins
            fresh = start({"X": 0, "Y": 0})["params"]
            resumed = spsa.start_from(path, fresh, Args)
        self.assertEqual((resumed["iteration"], resumed["iterations"], resumed["games"]), (15, 40, 30))
        self.assertEqual((resumed["seed"], resumed["rate_scale"]), (1, 1.0))
        while resumed["iteration"] < resumed["iterations"]:
            spsa.iterate(resumed, toward({"X": 500, "Y": 500}))
        for a, b in zip(whole["params"], resumed["params"]):
            self.assertAlmostEqual(a["value"], b["value"], places=2)

    def test_start_values_without_header_begin_a_schedule(self):
        header, values = spsa.parse_start(["X, int, 310, 0, 1000, 10.0, 0.002",
                                           "Y, int, 12, 0, 1000, 10, 0.002  # 11.5"])
        self.assertIsNone(header)
        self.assertEqual(values, {"X": 310.0, "Y": 11.5})
        header, _ = spsa.parse_start(["iteration 3 of 9, 24 games", "X, int, 1, 0, 9, 1, 1"])
        self.assertEqual(header, {"iteration": 3, "iterations": 9, "games": 24})  # seed, rate: the command line's

    def test_bad_start_text_is_named(self):
        bad = {
            "line 1": ["X, float, 1, 0, 9, 1, 1"],
            "line 2": ["X, int, 1, 0, 9, 1, 1", "iteration 3 of 9, 24 games"],  # the header comes first
            "of a schedule": ["iteration 10 of 9, 0 games", "X, int, 1, 0, 9, 1, 1"],
            "after '#'": ["X, int, 1, 0, 9, 1, 1  # one"],
            "a second time": ["X, int, 1, 0, 9, 1, 1", "X, int, 2, 0, 9, 1, 1"],
            "no parameter line": ["iteration 1 of 9, 8 games"],
        }
        for what, lines in bad.items():
            with self.assertRaisesRegex(ValueError, what):
                spsa.parse_start(lines)

        class Args:
            iterations, seed, rate_scale = 10, 1, 1.0
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "start.txt")
            for text, what in (("Z, int, 1, 0, 9, 1, 1\n", "Z is not among"),
                               ("X, int, 5000, 0, 9, 1, 1\n", "outside 0..1000"),
                               ("X, int\n", "start line 1")):
                with open(path, "w") as f:
                    f.write(text)
                with self.assertRaisesRegex(SystemExit, what):
                    spsa.start_from(path, start({"X": 1})["params"], Args)
            with open(path, "w") as f:
                f.write("iteration 4 of 9, 32 games\nX, int, 5, 0, 9, 1, 1\n")
            with self.assertRaisesRegex(SystemExit, "does not name Y"):  # mid-schedule: the same set
                spsa.start_from(path, start({"X": 1, "Y": 2})["params"], Args)
            self.assertEqual(spsa.start_from(path, start({"X": 1})["params"], Args)["iteration"], 4)
            with self.assertRaisesRegex(SystemExit, "missing.txt"):
                spsa.start_from(os.path.join(d, "missing.txt"), start({"X": 1})["params"], Args)
            state = os.path.join(d, "state.json")
            spsa.save(state, start({"X": 1}))
            with self.assertRaises(SystemExit):  # a state file that exists is resumed, never overwritten
                spsa.main(["--engine", "q", "--state", state, "--start", path])


if __name__ == "__main__":
    unittest.main()
