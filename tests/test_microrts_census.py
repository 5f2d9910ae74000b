"""The census study: counts of both players at cycle caps, from real matches."""



from experiments.studies.microrts_census import census, main
from games.backends import PoolMap

from .extras import need_microrts


def _census(_) -> list[dict]:
    return census("16x16", ("workerrush", "randombiased"), [100, 600], seat=1, seed=3)


def test_counts_grow_with_the_cap_and_stop_at_it():
    need_microrts()
    # in a worker process: a JVM started in the test process would be inherited by the
    # processes later tests fork, where it can hang
    with PoolMap(1) as pool:
        rows = pool(_census, [None])[0]
    assert [row["cap"] for row in rows] == [100, 600]
    early, late = rows
    assert early["cycles"] <= 100 and late["cycles"] <= 600
    # WorkerRush is deterministic under a seed: the longer replay passes through the
    # shorter one, so nothing it has made or gathered by cycle 100 is gone by 600
    for key, value in early["counts"][0].items():
        assert late["counts"][0].get(key, 0) >= value
    assert late["counts"][0].get("resources", 0) > early["counts"][0].get("resources", 0)


def test_caps_that_are_not_integers_are_one_line_exit_2(capsys):
    assert main(["--p0", "workerrush", "--caps", "100,x"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--caps" in err[0]
