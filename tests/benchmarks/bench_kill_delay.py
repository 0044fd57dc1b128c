"""Entries kept after SIGKILL, by the delay between the change and the kill.

A child instance of the app (tests/desktop/crash_child.py) opens a copy of a game's example,
logs one entry and says so; this script waits DELAY ms and kills it with SIGKILL, then looks
for the entry the way the next start does (desktop.storage.restore.find_orphans in the child's data
folder). The games rotate over the trials.

    python tests/benchmarks/bench_kill_delay.py [--root TREE] [--trials 6]
        [--delays 0,1,2,5,10,20,50]

``--root``: the source tree to measure (default: this one), e.g. a checkout of an older
commit that holds a copy of tests/desktop/crash_child.py. Prints "delay: kept/trials".
"""
import argparse
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("cluedo", "inkognito", "egghead", "guesswho", "spyfall")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=str(Path(__file__).resolve().parents[2]))
    ap.add_argument("--trials", type=int, default=6)
    ap.add_argument("--delays", default="0,1,2,5,10,20,50")
    args = ap.parse_args()
    root = Path(args.root).resolve()
    sys.path.insert(0, str(root))
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication([sys.argv[0]])
    app.setApplicationName("Deduction Desk")
    app.setOrganizationName("DeductionDeskTests")
    from desktop.storage.restore import find_orphans
    from engines.core.schema import session_json

    child = root / "tests" / "desktop" / "crash_child.py"
    delays = [int(d) for d in args.delays.split(",")]
    kept = {d: 0 for d in delays}
    k = 0
    with tempfile.TemporaryDirectory(prefix="bench-kill-") as tmp:
        for trial in range(args.trials):
            for delay in delays:
                game = GAMES[k % len(GAMES)]
                k += 1
                folder = Path(tmp) / f"{delay}-{trial}"
                (folder / "tmp").mkdir(parents=True)
                session = folder / f"{game}.json"
                session.write_bytes((root / "resources" / "examples" / f"{game}.json").read_bytes())
                env = dict(os.environ, XDG_DATA_HOME=str(folder / "data"),
                           XDG_CONFIG_HOME=str(folder / "config"), TMPDIR=str(folder / "tmp"))
                proc = subprocess.Popen([sys.executable, str(child), str(session), game, "log"],
                                        cwd=root, env=env, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True)
                line = ""
                while not line.startswith("changed"):
                    line = proc.stdout.readline()
                    if not line and proc.poll() is not None:
                        raise SystemExit(f"the child ended: {proc.returncode}")
                if delay:
                    time.sleep(delay / 1000)
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                _, n, digest = line.split()
                os.environ.update({k_: env[k_] for k_ in ("XDG_DATA_HOME", "XDG_CONFIG_HOME",
                                                          "TMPDIR")})
                orphans, _ = find_orphans()
                for o in orphans:
                    for data, _file in o.sessions:
                        events = session_json(data, "")["events"]
                        h = hashlib.sha1(json.dumps(events, sort_keys=True).encode()).hexdigest()
                        if data.game == game and len(data.events) == int(n) and h[:16] == digest:
                            kept[delay] += 1
                    o.lock.unlock()
    print(f"tree {root}: entries kept after SIGKILL (of {args.trials} per delay)")
    for d in delays:
        print(f"  {d:3d} ms: {kept[d]}/{args.trials}")


if __name__ == "__main__":
    main()
