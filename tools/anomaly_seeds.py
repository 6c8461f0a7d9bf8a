#!/usr/bin/env python3
"""Runs the demo at seeds FIRST..LAST and checks the step table's anomaly flags against the demo's
ground truth: every injected situation flagged with its cause, no ordinary step flagged.

usage: tools/anomaly_seeds.py BUILD_DIR [FIRST LAST]   (long: run it under nice -n 19)
Prints one line per seed with a miss or a false positive, then the totals and the false-positive rate.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

CAUSE = {"tail_growth": "tail_growth", "exposed_comm": "exposed_comm",
         "pre_replay_host_gap": "pre_replay_gap", "long_accept_worse_tpot": "long_accept_worse_tpot"}


def main():
    build = sys.argv[1]
    first, last = (int(sys.argv[2]), int(sys.argv[3])) if len(sys.argv) > 3 else (1, 50)
    cli = os.path.join(build, "app", "dspark-timeline")
    injected = found = clean = false_pos = 0
    for seed in range(first, last + 1):
        tmp = tempfile.mkdtemp(prefix="anomaly_seeds_")
        try:
            out = os.path.join(tmp, "demo")
            subprocess.run([cli, "demo", out, "--seed", str(seed)], check=True, capture_output=True)
            steps = json.loads(subprocess.run([cli, "steps", out, "--json"], check=True,
                                              capture_output=True).stdout)["steps"]
            with open(os.path.join(out, "ground_truth.json")) as f:
                truth = json.load(f)
        finally:
            shutil.rmtree(tmp)
        kinds = {}
        for a in truth["anomalies"]:
            if a["kind"] in CAUSE:
                kinds.setdefault(a["forward_ct"], set()).add(CAUSE[a["kind"]])
        problems = []
        for s in steps:
            causes = set(s.get("anomaly_causes") or [])
            want = kinds.get(s["forward_ct"], set())
            if want:
                injected += len(want)
                found += len(want & causes)
                wrong = (causes & set(CAUSE.values())) - want
                if want - causes or wrong:
                    problems.append("%d missed %s extra %s" % (s["forward_ct"], sorted(want - causes), sorted(wrong)))
            else:
                clean += 1
                if causes:
                    false_pos += 1
                    problems.append("%d clean but flagged: %s" % (s["forward_ct"], s["anomaly"]))
        if problems:
            print("seed %d: %s" % (seed, "; ".join(problems)))
    print("injected anomalies flagged with their cause: %d / %d" % (found, injected))
    print("clean steps flagged: %d / %d (false-positive rate %.2f %%)" % (false_pos, clean,
                                                                           100.0 * false_pos / max(clean, 1)))
    return 0 if found == injected and false_pos == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
