"""The report of load/compare-peer.sh: reads the raw files it left in WORK, prints the markdown tables to stdout (notes
to stderr) and writes every raw figure as one JSON object to RESULTS.
    python3 compare-report.py WORK RESULTS      (the configuration comes in C_* environment variables)
WORK holds: runs.jsonl (one line per recorded wrk run: lib/measure.sh's JSON plus phase, service, row, run),
burst.jsonl, probes.jsonl, skips.jsonl, services.jsonl, assets.jsonl (+ the summaries they name), upload-SERVICE.txt
(seconds per timed upload) and posekit-parses.txt."""
import json
import math
import os
import statistics
import sys

work, results = sys.argv[1], sys.argv[2]
env = os.environ
SVCS = ["posekit", "peer"]
ASSETS = {"fox": "Fox", "cesiumman": "CesiumMan", "brainstem": "BrainStem"}
FIELDS = ("rps", "p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "cpu_us_per_req", "cores_busy")


def path(name):
    return os.path.join(work, name)


def jsonl(name):
    if not os.path.exists(path(name)):
        return []
    return [json.loads(line) for line in open(path(name)) if line.strip()]


def label(row):
    if row == "health":
        return "GET /actuator/health (posekit only)"
    asset, kind, *body = row.split("-")
    if kind == "summary":
        return "%s asset summary GET /api/v1/assets/{id}" % ASSETS[asset]
    what = "skinning matrices" if kind == "matrices" else "skinned mesh"
    return "%s %s, %s" % (ASSETS[asset], what, "JSON" if body[0] == "json" else "binary")


def median_of(runs):
    out = {}
    for f in FIELDS:
        xs = [r[f] for r in runs if r.get(f) is not None]
        out[f] = round(statistics.median(xs), 3) if xs else None
    out["errors"] = sum(r["errors"] + r["non2xx"] for r in runs)
    out["runs"] = len(runs)
    return out


def q(xs, f):  # nearest rank
    xs = sorted(xs)
    return xs[max(0, math.ceil(f * len(xs)) - 1)]


def fmt(x, d=1):
    return "-" if x is None else "%.*f" % (d, x)


runs, probes, skips = jsonl("runs.jsonl"), jsonl("probes.jsonl"), jsonl("skips.jsonl")
for r in runs:
    r["run"] = int(r["run"])
    r["cores_busy"] = round(r["cpu_s"] / r["duration_s"], 3) if r.get("duration_s") else None


def cpu_count(cpus):  # "1", "0,1", "0-3,6" -> how many CPUs
    n = 0
    for part in cpus.split(","):
        lo, _, hi = part.partition("-")
        n += int(hi or lo) - int(lo) + 1
    return n


loadavg_after = open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else None
out = {
    "date": env["C_DATE"],
    "host": {"nproc": int(env["C_NPROC"]), "cpu": env["C_CPU"], "jdk": env["C_JDK"], "node": env["C_NODE"],
             "loadavg_before": env["C_LOAD_BEFORE"].split(), "loadavg_after": loadavg_after},
    "config": {k[2:].lower(): v for k, v in env.items()
               if k.startswith("C_") and k not in ("C_DATE", "C_NPROC", "C_CPU", "C_JDK", "C_NODE", "C_LOAD_BEFORE")},
    "services": jsonl("services.jsonl"),
    "probes": probes,
    "skipped": skips,
    "logged_errors_and_warnings": {f[len("logged-"):-len(".txt")]: open(path(f)).read().splitlines()
                                   for f in sorted(os.listdir(work)) if f.startswith("logged-")},
}
notes = []
# the CPU figures come from the service's own PID: it can never have been busier than the CPUs it may run on
for r in runs:
    svc = next((x for x in out["services"] if x["service"] == r["service"] and x["mode"] == r["phase"]), None)
    if svc and r["cores_busy"] is not None and r["cores_busy"] > 1.05 * cpu_count(svc["cpus"]) + 0.05:
        notes.append("WARNING: %s %s %s run %d: %.2f cores busy on CPUs %s: the CPU figures are wrong" % (
            r["service"], r["phase"], r["row"], r["run"], r["cores_busy"], svc["cpus"]))

# ---- assets: ids, clips and a few sizes from each service's summary ------------------------------------------------
assets = {}
for a in jsonl("assets.jsonl"):
    summ = json.load(open(a["summary_file"]))
    m0 = (summ.get("meshes") or [{}])[0]
    assets.setdefault(a["service"], {}).setdefault(a["mode"], {})[a["asset"]] = {
        "id": a["id"], "clip": a["clip"], "clip_duration": float(a["duration"]), "upload_status": int(a["upload_status"]),
        "clips": [c.get("name") for c in summ.get("clips", [])],
        "skin0_joints": len((summ.get("skins") or [{}])[0].get("joints", [])),
        "mesh0_vertices": sum(p.get("vertexCount", 0) for p in m0.get("primitives", [])),
    }
out["assets"] = assets
if "posekit" in assets and "peer" in assets:
    pk, pe = assets["posekit"]["pinned"], assets["peer"]["pinned"]
    for name in pk:
        for key in ("clip", "skin0_joints", "mesh0_vertices"):
            if name in pe and pk[name][key] != pe[name][key]:
                notes.append("note: %s %s differs: posekit %s, peer %s" % (name, key, pk[name][key], pe[name][key]))
sizes = {}
for p in probes:
    sizes.setdefault((p["mode"], p["row"]), {})[p["service"]] = int(p["bytes"])
for (mode, row), s in sorted(sizes.items()):
    if row.endswith("-binary") and len(set(s.values())) > 1:
        notes.append("note: %s binary bodies differ in size (%s): %s" % (row, mode, s))


# ---- the pinned and unpinned tables -----------------------------------------------------------------------------------
def table(phase, rows, title):
    lines = ["### " + title, "",
             "| row | posekit req/s | p50 / p99 / p99.9 ms | CPU µs/req | peer req/s | p50 / p99 / p99.9 ms | CPU µs/req "
             "| posekit ÷ peer | errors posekit / peer |",
             "|---|---:|---|---:|---:|---|---:|---:|---|"]
    entries = []
    for row in rows:
        e = {"row": row, "label": label(row)}
        cells = []
        for s in SVCS:
            rs = sorted((r for r in runs if r["phase"] == phase and r["service"] == s and r["row"] == row),
                        key=lambda r: r["run"])
            skip = next((k for k in skips if k["phase"] == phase and k["service"] == s and k["row"] == row), None)
            if rs:
                m = median_of(rs)
                e[s] = {"median": m, "runs": rs}
                cells += [fmt(m["rps"], 0), "%s / %s / %s" % (fmt(m["p50_ms"], 2), fmt(m["p99_ms"], 2), fmt(m["p999_ms"], 2)),
                          fmt(m["cpu_us_per_req"])]
                if m["errors"]:
                    notes.append("WARNING: %s %s %s: %d errors / non-2xx over %d runs" % (s, phase, row, m["errors"], len(rs)))
            else:
                e[s] = {"not_served": skip["why"]} if skip else None
                cells += ["not served" if skip else "-", "-", "-"]
        pk, pe = (e.get(s) or {} for s in SVCS)
        ratio = None
        if "median" in pk and "median" in pe and pe["median"]["rps"]:
            ratio = round(pk["median"]["rps"] / pe["median"]["rps"], 2)
        e["ratio_posekit_over_peer"] = ratio
        errs = " / ".join(str(x["median"]["errors"]) if "median" in x else "-" for x in (pk, pe))
        entries.append(e)
        lines.append("| %s | %s | %s | %s |" % (e["label"], " | ".join(cells), "-" if ratio is None else "%.2f×" % ratio, errs))
    return entries, lines


C = out["config"]
lines = ["posekit vs peer — %s — nproc %s — CPU: %s — JDK: %s — node %s — load average before %s, after %s — posekit %s (%s)"
         % (out["date"], out["host"]["nproc"], out["host"]["cpu"], out["host"]["jdk"], out["host"]["node"],
            " ".join(out["host"]["loadavg_before"]), " ".join(loadavg_after or ["?"]), C["rev"], C["jar"]), ""]
runs_rule = "median of %s × %s after a %s warm-up per row" % (C["runs"], C["duration"], C["warmup"])
out["pinned"], t = table("pinned", C["rows"].split(), "Pinned: service on CPU %s, wrk -t1 -c%s on CPU %s; %s" % (
    C["service_cpus"], C["connections"], C["wrk_cpus"], runs_rule))
lines += t + [""]
if C["unpinned"] != "0":
    out["unpinned"], t = table("unpinned", C["unpinned_rows"].split(), "Unpinned: no taskset, wrk -t%s -c%s; %s" % (
        C["unpinned_wrk_threads"], C["connections"], runs_rule))
    lines += t + [""]


def med_rps(phase, row, s):
    e = next((e for e in out.get(phase, []) if e["row"] == row), None)
    return e[s]["median"]["rps"] if e and e.get(s) and "median" in e[s] else None


bb, pj = med_rps("pinned", "brainstem-skinned-binary", "posekit"), med_rps("pinned", "brainstem-skinned-json", "peer")
if bb is not None and pj:
    out["brainstem_skinned_posekit_binary_over_peer_json"] = round(bb / pj, 2)
    lines += ["BrainStem skinned, pinned: posekit binary vs peer JSON: %.1f / %.1f req/s = %.1f×" % (bb, pj, bb / pj), ""]

# ---- burst ------------------------------------------------------------------------------------------------------------
burst = jsonl("burst.jsonl")
if burst:
    out["burst"] = {}
    for b in burst:
        out["burst"].setdefault(b["service"], {})[b["load"]] = b
    lines += ["### Burst, pinned as above: %s of Fox matrices JSON with %s connections while %s connections request "
              "BrainStem skinned JSON (two wrk -t1 on CPU %s, timeout %s)" % (
                  C["burst_duration"], C["burst_connections"], C["burst_side_connections"], C["wrk_cpus"], C["wrk_timeout"]),
              "",
              "| wrk run | posekit req/s | errors (c/r/w/t + non-2xx) | p50 / p99 / p99.9 ms | max ms "
              "| peer req/s | errors (c/r/w/t + non-2xx) | p50 / p99 / p99.9 ms | max ms |",
              "|---|---:|---|---|---:|---:|---|---|---:|"]
    for load, name in (("main", "Fox matrices JSON × %s" % C["burst_connections"]),
                       ("side", "BrainStem skinned JSON × %s" % C["burst_side_connections"])):
        cells = []
        for s in SVCS:
            b = out["burst"].get(s, {}).get(load)
            if b is None:
                cells += ["-"] * 4
                continue
            cells += [fmt(b["rps"], 0),
                      "%d (%s/%s/%s/%s + %d)" % (b["errors"] + b["non2xx"], b.get("err_connect", "?"), b.get("err_read", "?"),
                                                 b.get("err_write", "?"), b.get("err_timeout", "?"), b["non2xx"]),
                      "%s / %s / %s" % (fmt(b["p50_ms"], 2), fmt(b["p99_ms"], 2), fmt(b["p999_ms"], 2)), fmt(b["max_ms"], 0)]
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    lines += ["", "Listen-queue overflows during the burst (kernel TcpExt ListenOverflows + ListenDrops, whole machine): %s" % (
        ", ".join("%s %s" % (s, out["burst"][s]["main"].get("listen_overflows", "?")) for s in SVCS if s in out["burst"])), ""]

# ---- upload + parse -----------------------------------------------------------------------------------------------------
if int(C["upload_repeats"]) > 0:
    up = {"asset": "BrainStem.glb", "repeats": int(C["upload_repeats"]), "warmups": int(C["upload_warmups"]),
          "service_pinned": True}
    for s in SVCS:
        if os.path.exists(path("upload-%s.txt" % s)):
            ms = [float(x) * 1000 for x in open(path("upload-%s.txt" % s)).read().split()]
            up[s] = {"median_ms": round(statistics.median(ms), 2), "p90_ms": round(q(ms, 0.9), 2),
                     "samples_ms": [round(x, 2) for x in ms]}
    if os.path.exists(path("posekit-parses.txt")):
        up["posekit_parses"] = int(open(path("posekit-parses.txt")).read())
    if "posekit" in up and "peer" in up:
        up["ratio_peer_over_posekit"] = round(up["peer"]["median_ms"] / up["posekit"]["median_ms"], 2)
    out["upload"] = up
    parts = ["%s median %.1f ms, p90 %.1f ms" % (s, up[s]["median_ms"], up[s]["p90_ms"]) for s in SVCS if s in up]
    lines.append("Upload + parse of BrainStem.glb (raw POST, pinned service, %d timed after %d warm-ups): %s%s" % (
        up["repeats"], up["warmups"], "; ".join(parts),
        "; peer/posekit %.2f×" % up["ratio_peer_over_posekit"] if "ratio_peer_over_posekit" in up else ""))
lines.append("CPU µs/req: the service process's utime + stime (/proc/PID/stat, all threads) over the run ÷ requests; "
             "errors: connect/read/write/timeout (wrk timeout %s) + non-2xx, summed over the recorded runs; "
             "raw results: %s" % (C["wrk_timeout"], results))

for n in notes:
    print(n, file=sys.stderr)
print("\n".join(lines))
with open(results, "w") as fh:
    fh.write(json.dumps(out) + "\n")
