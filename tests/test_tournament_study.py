"""The microRTS tournament study's method ranking, on a hand-made pairings file."""

import json

from experiments.studies.microrts_tournament import DEFAULT_METHODS, METHODS, method_table


def test_methods_are_ranked_by_their_mean_over_seeds_with_a_t_interval(tmp_path):
    # Three seeds; each method's program plays one pairing of 10 matches against a bot.
    scores = {"HSS-IBR": (6, 7, 8), "HSS-FP": (10, 10, 10), "SA-IBR": (2, 4, 3),
              "SA-FP": (0, 0, 1)}
    lines = [json.dumps({"format": "stratsynth-tournament-pairs"})]
    for method, wins in scores.items():
        for seed, w in zip((1, 2, 3), wins):
            lines.append(json.dumps({"pair": [f"{method}/{seed}", "COAC"], "wins": [w, 10 - w],
                                     "even": 0, "matches": 10}))
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(lines) + "\n")
    rows = [line.split(" | ") for line in method_table(pairs, [1, 2, 3]).splitlines()
            if line.startswith("| ") and "method" not in line]
    assert [row[1] for row in rows] == ["HSS-FP", "HSS-IBR", "SA-IBR", "SA-FP"]
    # HSS-IBR: mean 0.7, sd 0.1 over 3 seeds, t(2) = 4.303: 0.7 ± 0.2484
    assert rows[1][2:5] == ["70.0", "45.2–94.8", "60.0, 70.0, 80.0"]
    assert rows[0][3] == "100.0–100.0"  # no spread between seeds
    assert set(DEFAULT_METHODS) == set(scores)
    assert METHODS["HSS-2L"] == ("hss", "2l") and METHODS["SA-DO"] == ("sa", "do")
    drivers = [line.split(" | ")[1] for line in method_table(
        pairs, [1, 2, 3], ("HSS-IBR", "SA-FP")).splitlines()[2:4]]
    assert drivers == ["HSS-IBR", "SA-FP"]  # only the methods asked for


def test_the_dissertation_settings_reach_every_self_play_run(tmp_path, monkeypatch):
    """``--one-start``: one match per evaluation from the seed's side; the HSS runs get
    the chosen level-2 search, the SA runs no such flag."""
    from experiments.studies import microrts_tournament as study

    commands = []
    # the tournament stage fails, so main stops after the self-play commands it built
    def stratsynth(command):
        commands.append(command)
        return 0 if command[0] == "selfplay" else 1

    monkeypatch.setattr(study, "stratsynth", stratsynth)
    monkeypatch.setattr(study, "done_calls", lambda args, method, seed: 0)
    assert study.main(["--seeds", "1-2", "--iterations", "1", "--evaluations", "3", "--one-start",
                "--hss-local-search", "sa", "--methods", "HSS-IBR,SA-IBR",
                "--out", str(tmp_path)]) == 1
    runs = [c for c in commands if c[0] == "selfplay"]
    assert len(runs) == 4
    for command in runs:
        flags = {flag: value for flag, value in zip(command, command[1:])
                 if flag.startswith("--")}
        seed = int(flags["--seed"])
        assert flags["--matches"] == "1" and flags["--side"] == str(seed % 2)
        assert ("--hss-local-search" in command) == (flags["--oracle"] == "hss")
        if flags["--oracle"] == "hss":
            assert flags["--hss-local-search"] == "sa"
