#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# judge-sim.py: lib/latency.c's rule for a flat device (misses alike near
# and far, with a floor), written again here and run on synthetic traces of
# disks and flat devices, many walks each, to count how often a disk is
# taken for flat and how soon a flat device is recognised. A walk is rounds
# of one distant miss and CLOSE close ones (2: a walk in block order over an
# aged tree; 20: one in disk order over a tree laid out so). Times in ms.
#
#   python3 judge-sim.py [WALKS] [ROUNDS]      (defaults 1000 and 2000)
#
# Figures of 2026-11-24 (1,000 walks; 500 where the device says it does
# not rotate): with the device saying it rotates, 0 disks of the six kinds
# below judged flat, flat devices judged within 30 rounds; saying it does
# not, at most 1 disk in 500 of a kind, flat devices within 15 rounds.
import random
import statistics
import sys

RING, SAMPLES, HOLDS, FAST_MS, RATIO_PCT = 32, 16, 16, 0.3, 125


def spread(v):
    v = sorted(v[-RING:])
    n = len(v)
    return v[0], v[n // 4], v[n * 3 // 4], v[-1]


def flat_now(close, distant, solid):
    distant_known = len(distant) >= SAMPLES
    if len(close) < SAMPLES or not (distant_known or solid):
        return False
    cmin, cq1, cq3, _ = spread(close)
    if cq3 > 2 * cq1 or 2 * cmin < cq1:
        return False
    if not distant_known:
        return cmin >= FAST_MS and (not distant or spread(distant)[3] <= 2 * cq3)
    dmin, dq1, _, _ = spread(distant)
    return dq1 * 100 <= cq1 * RATIO_PCT and 2 * dmin >= dq1


def walk(far, near, rounds, solid, close_per_round):
    close, distant, holds = [], [], 0
    for i in range(rounds):
        for kind in ['distant'] + ['close'] * close_per_round:
            (distant if kind == 'distant' else close).append(far() if kind == 'distant' else near())
            holds = holds + 1 if flat_now(close, distant, solid) else 0
            if holds >= HOLDS:
                return i
    return None


def main():
    walks = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    r = random.Random(7)
    u = r.uniform
    disks = {  # distant miss, close miss
        'seek 1 ms, no buffer hit': (lambda: 1 + u(0, 8.3), lambda: u(0.03, 8.3)),
        'seek 0.5 ms, no buffer hit': (lambda: 0.5 + u(0, 8.3), lambda: u(0.03, 8.3)),
        'half buffer hits': (lambda: 1.5 + u(0, 8.3), lambda: r.choice([u(0.1, 0.25), u(0, 8.3)])),
        'the emulated disk': (lambda: u(4, 13), lambda: u(0.1, 8.3)),
        'buffer hits only': (lambda: u(4, 13), lambda: u(0.1, 0.25)),
        'hits over USB': (lambda: u(4, 13), lambda: u(0.4, 0.7)),
    }
    flats = {
        '0.8 ms': (lambda: u(0.7, 0.9),) * 2,
        'Ceph, 2 ms': (lambda: u(1.5, 2.5),) * 2,
        '0.5-2 ms': (lambda: u(0.5, 2),) * 2,
        'log-normal': (lambda: r.lognormvariate(0, 0.3),) * 2,
    }
    for solid in (False, True):
        for per in (2, 20):
            print(f'device says it {"does not rotate" if solid else "rotates"}, '
                  f'{per} close reads to a distant one')
            for name, (far, near) in disks.items():
                n = sum(walk(far, near, rounds, solid, per) is not None for _ in range(walks))
                print(f'  disk {name:28} judged flat in {n}/{walks} walks')
            for name, (far, near) in flats.items():
                got = [x for x in (walk(far, near, rounds, solid, per) for _ in range(walks // 5))
                       if x is not None]
                med = statistics.median(got) if got else None
                print(f'  flat {name:28} judged in {len(got)}/{walks // 5}, median round {med}')


main()
