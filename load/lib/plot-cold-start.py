#!/usr/bin/env python3
"""Warm-up curves of load/cold-start.sh as an SVG plot (no plotting library needed).

  load/lib/plot-cold-start.py OUT.svg "LABEL=RESULTS[@SERVICE]" ...

Each series is one RESULTS file of load/cold-start.sh (JSON lines), optionally only the rows of SERVICE (posekit or
peer). Per series and window the median over its runs is drawn: x is seconds since the process was started (the
window's end: ready + 10 s × n, the median ready time of the runs), y the window's requests per second; a dot marks
ready (y 0). The axes, a legend and the series' median ready time are written in.
"""
import json
import statistics
import sys

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]


def load(spec):
    label, rest = spec.split("=", 1)
    path, _, service = rest.partition("@")
    rows = [json.loads(line) for line in open(path) if line.strip()]
    rows = [r for r in rows if not service or r["service"] == service]
    if not rows:
        sys.exit(f"plot-cold-start: no rows in {path}{' for ' + service if service else ''}")
    ready = statistics.median(r["ready_s"] for r in rows)
    n = min(len(r["windows"]) for r in rows)
    points = []
    t = ready
    for i in range(n):
        t += statistics.median(r["windows"][i]["duration_s"] for r in rows)
        points.append((t, statistics.median(r["windows"][i]["rps"] for r in rows)))
    return label, ready, points


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    series = [load(s) for s in sys.argv[2:]]
    width, height, left, right, top = 760, 360, 70, 20, 20
    bottom = 60 + 15 * len(series)
    height += 15 * len(series)
    xmax = max(max([p[0] for p in pts] + [ready]) for _, ready, pts in series)
    ymax = max(max([p[1] for p in pts] + [1]) for _, _, pts in series)
    xmax = 10 * (int(xmax / 10) + 1)
    ystep = 5000 if ymax > 10000 else 1000
    ymax = ystep * (int(ymax / ystep) + 1)

    def x(v):
        return left + (width - left - right) * v / xmax

    def y(v):
        return top + (height - top - bottom) * (1 - v / ymax)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
           f'font-size="12"><rect width="100%" height="100%" fill="white"/>']
    for v in range(0, ymax + 1, ystep):
        out.append(f'<line x1="{left}" y1="{y(v):.1f}" x2="{width - right}" y2="{y(v):.1f}" stroke="#ddd"/>')
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v}</text>')
    for v in range(0, xmax + 1, 10):
        out.append(f'<line x1="{x(v):.1f}" y1="{top}" x2="{x(v):.1f}" y2="{height - bottom}" stroke="#eee"/>')
        out.append(f'<text x="{x(v):.1f}" y="{height - bottom + 16}" text-anchor="middle">{v}</text>')
    out.append(f'<text x="{(left + width - right) / 2}" y="{height - bottom + 34}" text-anchor="middle">'
               'seconds since the process started (each point: the 10 s window ending there)</text>')
    out.append(f'<text x="16" y="{(top + height - bottom) / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {(top + height - bottom) / 2})">requests/s (Fox matrices JSON)</text>')
    for i, (label, ready, pts) in enumerate(series):
        c = COLOURS[i % len(COLOURS)]
        path = " ".join(f"{x(t):.1f},{y(r):.1f}" for t, r in [(ready, 0)] + pts)
        out.append(f'<polyline points="{path}" fill="none" stroke="{c}" stroke-width="2"/>')
        out.append(f'<circle cx="{x(ready):.1f}" cy="{y(0):.1f}" r="4" fill="{c}"/>')
        for t, r in pts:
            out.append(f'<circle cx="{x(t):.1f}" cy="{y(r):.1f}" r="2.5" fill="{c}"/>')
        ly = height - bottom + 52 + 15 * i
        lx = left
        out.append(f'<line x1="{lx}" y1="{ly - 4}" x2="{lx + 20}" y2="{ly - 4}" stroke="{c}" stroke-width="2"/>')
        out.append(f'<text x="{lx + 26}" y="{ly}">{label} (ready {ready:.1f} s)</text>')
    out.append("</svg>")
    with open(sys.argv[1], "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
