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


def _tournament(folder, hss_search, side, wins_against_bots, wins_between_programs=10):
    """A finished tournament folder: HSS-FP and SA-FP runs of seeds 1-2, their configs,
    and pairings of 10 matches against COAC plus one between two programs."""
    for method in ("hss-fp", "sa-fp"):
        for seed in (1, 2):
            run = folder / f"{method}-seed{seed}"
            run.mkdir(parents=True)
            config = {"oracle": method.split("-")[0], "driver": "fp", "mixture": "stratified",
                      "matches": 1 if side is not None else 2}
            if side is not None:
                config["side"] = side
            if hss_search is not None and method.startswith("hss"):
                config["hss_local_search"] = hss_search
            (run / "config.json").write_text(json.dumps(config))
    lines = [json.dumps({"format": "stratsynth-tournament-pairs"})]
    for (method, seed), wins in wins_against_bots.items():
        lines.append(json.dumps({"pair": ["COAC", f"{method}/{seed}"], "wins": [10 - wins, wins],
                                 "even": 0, "matches": 10}))
    lines.append(json.dumps({"pair": ["HSS-FP/1", "SA-FP/1"],
                             "wins": [wins_between_programs, 10 - wins_between_programs],
                             "even": 0, "matches": 10}))
    (folder / "tournament").mkdir()
    (folder / "tournament" / "pairs.jsonl").write_text("\n".join(lines) + "\n")


def test_tournaments_a_setting_apart_are_compared_on_their_score_against_the_bots(tmp_path):
    from experiments.studies.microrts_settings_apart import main, scores_against_bots, settings

    reference, other = tmp_path / "tournament-ref", tmp_path / "tournament-other"
    _tournament(reference, "sketch-sa", 1, {("HSS-FP", 1): 4, ("HSS-FP", 2): 6,
                                            ("SA-FP", 1): 2, ("SA-FP", 2): 2})
    # a run recorded before the level-2 key existed ran plain SA; two-match Ψ
    _tournament(other, None, None, {("HSS-FP", 1): 7, ("HSS-FP", 2): 9,
                                    ("SA-FP", 1): 2, ("SA-FP", 2): 4},
                wins_between_programs=0)
    assert settings(reference) == {"HSS level 2": "sketch-sa", "Ψ": "one match, one start",
                                   "FP mixture": "stratified"}
    assert settings(other)["HSS level 2"] == "sa"
    assert settings(other)["Ψ"] == "2 matches, one per start"
    # the pairing between two programs does not count, whoever won it
    assert scores_against_bots(other)["HSS-FP"] == {1: 0.7, 2: 0.9}
    out = tmp_path / "apart.md"
    assert main([str(reference), str(other), "--out", str(out)]) == 0
    rows = {line.split(" | ")[0]: line.split(" | ")[1:] for line in out.read_text().splitlines()
            if line.startswith("| HSS-FP") or line.startswith("| SA-FP")}
    assert rows["| HSS-FP"][0] == "50.0 (40, 60)"
    assert rows["| HSS-FP"][1].startswith("80.0 (70, 90); +30.0, p ")
    assert rows["| SA-FP"][1].startswith("30.0 (20, 40); +10.0, p ")


def test_a_folder_without_a_finished_tournament_gets_one_line_and_exit_2(tmp_path, capsys):
    from experiments.studies.microrts_settings_apart import main

    (tmp_path / "half").mkdir()
    assert main([str(tmp_path / "half")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "half" in err and "pairs.jsonl" in err
