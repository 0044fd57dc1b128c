"""The Cluedo recommendation's cost estimate against the CPU time it takes
(engines/cluedo/cost.py): for each table, the plan (sizes and work units per part) and the
CPU seconds of ``python -m engines recommend`` as a function (``recommend_for_cli``), or the
refusal and how long it took. Run: ``python tests/benchmarks/bench_cluedo_cost.py [names]``;
names from: uk3 uk6 us3..us6 md3..md10 cl10x3 cl20x3 cl40x3 (default: the refused ones and uk3)."""
from __future__ import annotations

import importlib
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import engines.cluedo.cost as cost
from engines.cluedo.model import Setup
from engines.core.errors import SessionFormatError

rec = importlib.import_module("engines.cluedo.recommend")
P = [f"P{i}" for i in range(10)]
TABLES = {
    "uk3": ({"edition": "cluedo-uk"}, 3), "uk6": ({"edition": "cluedo-uk"}, 6),
    **{f"md{k}": ({"edition": "clue-master-detective"}, k) for k in range(3, 11)},
    **{f"us{k}": ({"edition": "clue-us"}, k) for k in range(3, 7)},
    **{f"cl{n}x3": ({"categories": {c: [f"{c[0].upper()}{i}" for i in range(n)]
                                    for c in ("suspect", "weapon", "room")}}, 3)
       for n in (10, 20, 40)},
}


def main(names) -> None:
    real = cost.plan_recommendation
    plans = []

    def spy(**kw):
        plans.append(real(**kw))
        return plans[-1]

    cost.plan_recommendation = spy
    print(f"budget {cost.RECOMMEND_WORK:.2g} work units; rate {cost.WORK_PER_SECOND:.2g} per CPU s; "
          f"load {os.getloadavg()[0]:.1f}")
    for name in names:
        extra, k = TABLES[name]
        setup = Setup.from_json({"players": P[:k], "me": P[0], **extra}, "$.setup")
        t0 = time.process_time()
        try:
            rec.recommend_for_cli(setup, ())
            p = plans[-1]
            print(f"{name}: ran in {time.process_time() - t0:.1f} s CPU; estimate {p.work:.3g} "
                  f"(~{p.seconds():.1f} s): ranking deals {p.rank_samples}, exact {p.exact_top}, "
                  f"opponents' deals {p.opponents_samples}", flush=True)
        except SessionFormatError as e:
            print(f"{name}: refused in {time.process_time() - t0:.2f} s CPU at {e.path}: "
                  f"{e.message}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or ["cl40x3", "md10", "uk3"])
