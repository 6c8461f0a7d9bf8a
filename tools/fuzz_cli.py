#!/usr/bin/env python3
"""Fuzzes the headless CLI (info / analyze / steps) with damaged profiles; reports crashes and hangs.

Seeds: the JSON traces and databases of the real test data (read, never written) and the demo's
server_info.json (written by `BIN demo` into a temporary folder). Each run writes one damaged copy into
a temporary folder and runs BIN on it. Two kinds of damage:
  bytes      bit flips, JSON punctuation, truncation, cut and copied ranges, odd tokens (mostly clean
             parse errors: tests the error paths and their offsets);
  structure  valid JSON with odd values: phases, huge / negative / string / null numbers and ids,
             dropped keys, duplicated and swapped events, odd step-record fields (tests the builders,
             the analyses and the step table).
A run is bad when BIN is killed by a signal, exits with a code above 2, prints a sanitizer report, or
takes longer than --timeout seconds. Bad inputs are kept in --out. Use an ASan/UBSan build to find
memory and undefined-behaviour errors that do not crash (docs/performance.md says how it was used).

usage: tools/fuzz_cli.py BIN [--runs N] [--seed S] [--mode bytes|structure] [--cmd info|analyze|steps|mix]
                         [--testdata DIR] [--out DIR] [--timeout SEC]
"""
import argparse
import gzip
import json
import os
import random
import shutil
import subprocess
import tempfile
import time

TOKENS = [b'"', b'{', b'[', b'}', b']', b'\xff', b'\xe4\xb8', b'1e999', b'-', b'null', b'\r\n', b'\x00',
          b'"ph":"s"', b'"ts":"1.5"', b'"dur":-5', b'99999999999999999999999']
PHASES = list('XBEstfCMiIbenP?') + ['', 'XX', None, 5]
NAMES = ['', 'ac2g', 'async_npu', 'kernel', 'gpu_memcpy', 'cuda_runtime', 'process_name', 'thread_name',
         'process_sort_index', 'thread_sort_index', 'hcom_allReduce_', 'Stream 5', '中文', None, 7]


def odd_number():
    return random.choice([0, -1, 1, 2**31, 2**32 + 5, 2**63 - 1, 2**63, 2**64 + 1, -2**63, 1e300, -1e300, 0.5,
                          1e-9, "1", "1.5", "abc", "", None, True, [], {}, "18446744073709551616", "-0", " 3"])


def damage_bytes(data):
    d = bytearray(data)
    for _ in range(random.randint(1, 4)):
        n = len(d)
        if n == 0:
            break
        op = random.random()
        if op < 0.25:
            for _ in range(random.randint(1, 16)):
                d[random.randrange(n)] = random.randrange(256)
        elif op < 0.45:
            for _ in range(random.randint(1, 8)):
                d[random.randrange(n)] = random.choice(b'{}[]":,0123456789-.eE ')
        elif op < 0.55:
            del d[random.randrange(n):]
        elif op < 0.7:
            a = random.randrange(n)
            del d[a:a + random.randint(1, 2000)]
        elif op < 0.85:
            a = random.randrange(n)
            c = random.randrange(n)
            d[c:c] = d[a:a + random.randint(1, 2000)]
        else:
            c = random.randrange(n)
            d[c:c] = b''.join(random.choice(TOKENS) for _ in range(random.randint(1, 5)))
    return bytes(d)


def odd_event(e):
    if not isinstance(e, dict):
        return odd_number()
    e = dict(e)
    for _ in range(random.randint(1, 3)):
        k = random.choice(['ph', 'ts', 'dur', 'pid', 'tid', 'id', 'cat', 'name', 'args', 'bp', 'del'])
        if k == 'ph':
            e['ph'] = random.choice(PHASES)
        elif k in ('ts', 'dur'):
            v = e.get(k)
            e[k] = odd_number() if random.random() < 0.3 or not isinstance(v, (int, float)) else \
                v + random.choice([-1e6, -1, 1, 1e6, 1e12])
        elif k in ('pid', 'tid', 'id'):
            e[k] = odd_number()
        elif k in ('cat', 'name'):
            e[k] = random.choice(NAMES)
        elif k == 'args':
            a = dict(e['args']) if isinstance(e.get('args'), dict) else {}
            a[random.choice(['name', 'sort_index', 'stream', 'device', 'correlation', 'connection_id',
                             'Task Type', 'labels', 'value'])] = \
                odd_number() if random.random() < 0.7 else random.choice(['Stream 3', 'AI_CORE', 'HCCL'])
            e['args'] = a if random.random() < 0.9 else odd_number()
        elif k == 'bp':
            e['bp'] = random.choice(['e', 's', 1, None])
        elif e:
            del e[random.choice(list(e))]
    return e


def damage_trace(doc):
    events = list(doc['traceEvents'] if isinstance(doc, dict) else doc)
    for _ in range(random.randint(1, 40)):
        if not events:
            break
        i = random.randrange(len(events))
        r = random.random()
        if r < 0.7:
            events[i] = odd_event(events[i])
        elif r < 0.8:
            events.insert(random.randrange(len(events)), events[i])
        elif r < 0.9:
            del events[i]
        else:
            j = random.randrange(len(events))
            events[i], events[j] = events[j], events[i]
    if isinstance(doc, dict):
        return dict(doc, traceEvents=events)
    return events


def damage_steps(doc):
    doc = json.loads(json.dumps(doc))
    for state in doc.get('internal_states', []):
        info = state.get('dspark_info_record', {})
        records = info.get('records', [])
        for _ in range(random.randint(1, 30)):
            if records:
                i = random.randrange(len(records))
                r = dict(records[i]) if isinstance(records[i], dict) else {}
                k = random.choice(list(r) + ['forward_ct', 'bs', 'reqs', 'step_time', 'del'])
                if k == 'del' and r:
                    del r[random.choice(list(r))]
                elif k == 'reqs':
                    r['reqs'] = random.choice([odd_number(), [odd_number()],
                                               [{'acc_len': odd_number(), 'verify_len': odd_number()}]])
                else:
                    r[k] = odd_number()
                records[i] = r
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('bin')
    ap.add_argument('--runs', type=int, default=500)
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--mode', choices=['bytes', 'structure'], default='structure')
    ap.add_argument('--cmd', choices=['info', 'analyze', 'steps', 'mix'], default='mix')
    ap.add_argument('--testdata', default=os.path.join(os.path.dirname(__file__), '../../shared/testdata/real'))
    ap.add_argument('--out', default='/tmp/dspark-fuzz-found')
    ap.add_argument('--timeout', type=float, default=60)
    a = ap.parse_args()
    random.seed(a.seed)
    work = tempfile.mkdtemp(prefix='dspark-fuzz-')
    seeds = {}
    for root, _, files in os.walk(a.testdata):
        for f in files:
            path = os.path.join(root, f)
            if 'negative' in root or f.startswith(('analysis', 'communication')):
                continue
            if f.endswith('.json') or f.endswith('.db'):
                seeds[f] = open(path, 'rb').read()
            elif f.endswith('.json.gz') and os.path.getsize(path) < 2 << 20:
                seeds[f[:-3]] = gzip.decompress(open(path, 'rb').read())
    subprocess.run([a.bin, 'demo', os.path.join(work, 'demo')], stdout=subprocess.DEVNULL, check=True)
    seeds['server_info.json'] = open(os.path.join(work, 'demo', 'server_info.json'), 'rb').read()
    small_trace = min((n for n in seeds if n.endswith('.trace.json')), key=lambda n: len(seeds[n]))
    parsed = {}
    bad = 0
    t0 = time.time()
    for run in range(a.runs):
        name = random.choice(sorted(n for n in seeds if a.mode == 'bytes' or n.endswith('trace.json') or
                                    n in ('trace_view.json', 'server_info.json')))
        folder = os.path.join(work, 'run')
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        if a.mode == 'bytes':
            data = damage_bytes(seeds[name])
        else:
            doc = parsed.setdefault(name, json.loads(seeds[name]))
            data = json.dumps(damage_steps(doc) if name == 'server_info.json' else damage_trace(doc),
                              ensure_ascii=random.random() < 0.5).encode()
        if name == 'server_info.json':  # step records next to a trace
            open(os.path.join(folder, name), 'wb').write(data)
            open(os.path.join(folder, small_trace), 'wb').write(seeds[small_trace])
            target = folder
        elif name.endswith('.json') and random.random() < 0.1:  # gzip, sometimes damaged
            blob = bytearray(gzip.compress(data))
            if random.random() < 0.5:
                for _ in range(3):
                    blob[random.randrange(len(blob))] = random.randrange(256)
            target = os.path.join(folder, name + '.gz')
            open(target, 'wb').write(blob)
        else:
            target = os.path.join(folder, name)
            open(target, 'wb').write(data)
        cmd = a.cmd if a.cmd != 'mix' else random.choice(['info', 'analyze', 'steps'])
        args = [a.bin, cmd, target, '--json']
        verdict = None
        try:
            r = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=a.timeout,
                               env=dict(os.environ, QT_QPA_PLATFORM='offscreen'))
            if r.returncode < 0 or r.returncode > 2 or b'Sanitizer' in r.stderr or b'runtime error' in r.stderr:
                verdict = 'crash (exit %d): %s' % (r.returncode, r.stderr[-400:].decode(errors='replace'))
        except subprocess.TimeoutExpired:
            verdict = 'hang (over %g s)' % a.timeout
        if verdict:
            bad += 1
            keep = os.path.join(a.out, '%s-%d-%d-%s' % (cmd, a.seed, run, name))
            shutil.copytree(folder, keep)
            print('BAD', keep, verdict, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    print('%d runs (%s, %s) in %.0f s: %d bad' % (a.runs, a.mode, a.cmd, time.time() - t0, bad), flush=True)
    return 1 if bad else 0


if __name__ == '__main__':
    raise SystemExit(main())
