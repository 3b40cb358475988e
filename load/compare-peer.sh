#!/usr/bin/env bash
# Side-by-side HTTP benchmark of posekit and the peer (the same v1 API in Node + three.js, ../shared/tools/peer),
# both on loopback, one at a time.
#   load/compare-peer.sh        (needs target/posekit.jar: ./mvnw -DskipTests package; wrk; node + npm)
# 1. checks the prerequisites; runs `npm ci` in shared/tools/oracle and shared/tools/peer if node_modules is missing;
# 2. starts posekit (fresh store in a temporary directory) and the peer (stock three.js), both on 127.0.0.1;
# 3. upload + parse time of BrainStem.glb: UPLOAD_REPEATS timed POSTs on each (after 3 warm-ups), each followed by a
#    DELETE so that the next POST parses again (checked: every timed POST must answer 201, a duplicate 200);
# 4. uploads the assets to both and runs the peer's own bench.sh (wrk: skins/0/matrices and meshes/0/skinned at
#    random times of the clip, loop=repeat) against posekit, then the peer, for JSON and binary bodies;
# 5. prints a markdown table, the upload line and the BrainStem "posekit binary vs peer JSON" ratio, writes every
#    raw figure as one JSON object to RESULTS and prints that JSON last (progress and wrk reports go to stderr).
# Environment: DURATION (10s, per wrk run) WARMUP (3s of unrecorded load per asset and service; 0 = none)
#   PORT (18080) PEER_PORT (18088) ASSETS ("Fox CesiumMan BrainStem"; NAME or NAME:CLIP, CLIP a name or an index;
#   default clips: Fox Walk, the others their first clip) SKIP_BINARY (1 = JSON only) UPLOAD_REPEATS (20; 0 = skip)
#   JAVA_OPTS (-Xmx1g) JAVA_HOME (/usr/lib/jvm/temurin-25-jdk-amd64) SHARED (../shared)
#   RESULTS (/tmp/posekit-compare.json) CONNECTIONS (32) THREADS (2) (read by bench.sh) VERBOSE (1 = wrk reports)
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
DURATION=${DURATION:-10s}; WARMUP=${WARMUP:-3s}; PORT=${PORT:-18080}; PEER_PORT=${PEER_PORT:-18088}
ASSETS=${ASSETS:-Fox CesiumMan BrainStem}; SKIP_BINARY=${SKIP_BINARY:-0}; UPLOAD_REPEATS=${UPLOAD_REPEATS:-20}
JAVA_OPTS=${JAVA_OPTS:--Xmx1g}; JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
RESULTS=${RESULTS:-/tmp/posekit-compare.json}; VERBOSE=${VERBOSE:-0}
export DURATION CONNECTIONS=${CONNECTIONS:-32} THREADS=${THREADS:-2}
UPLOAD_WARMUPS=3

say() { echo "== $*" >&2; }
die() { echo "compare-peer: $*" >&2; exit 1; }

# ---- 1. prerequisites ------------------------------------------------------------------------------------------------
[ -f target/posekit.jar ] || die "target/posekit.jar is missing: build it first with ./mvnw -DskipTests package"
[ -x "$JAVA" ] || die "no java at $JAVA (set JAVA_HOME to a JDK 25)"
command -v wrk >/dev/null || die "wrk is needed (apt-get install wrk)"
command -v node >/dev/null || die "node is needed (apt-get install nodejs npm)"
command -v python3 >/dev/null || die "python3 is needed"
command -v curl >/dev/null || die "curl is needed"
[ -d "$SHARED/tools/peer" ] && [ -d "$SHARED/tools/oracle" ] || die "no tools/peer and tools/oracle under SHARED=$SHARED"
SHARED=$(cd "$SHARED" && pwd)
PEER_DIR=$SHARED/tools/peer; BENCH=$PEER_DIR/bench.sh; GLTF=$SHARED/conformance/assets/gltf
[ -x "$BENCH" ] || die "$BENCH is missing or not executable"
for d in "$SHARED/tools/oracle" "$PEER_DIR"; do   # the peer imports three.js from ../oracle/node_modules
  if [ ! -d "$d/node_modules" ]; then
    command -v npm >/dev/null || die "npm is needed to install $d/node_modules"
    say "npm ci in $d"
    (cd "$d" && npm ci --no-audit --no-fund >&2) || die "npm ci failed in $d"
  fi
done
[[ $UPLOAD_REPEATS =~ ^[0-9]+$ ]] || die "UPLOAD_REPEATS must be a whole number (got '$UPLOAD_REPEATS')"
NAMES=(); CLIPS=()
for spec in $ASSETS; do
  name=${spec%%:*}; name=${name%.glb}
  if [[ $spec == *:* ]]; then clip=${spec#*:}; elif [ "$name" = Fox ]; then clip=Walk; else clip=0; fi
  [ -f "$GLTF/$name/$name.glb" ] || die "no asset $GLTF/$name/$name.glb (ASSETS takes names such as Fox, CesiumMan, BrainStem)"
  NAMES+=("$name"); CLIPS+=("$clip")
done
[ ${#NAMES[@]} -gt 0 ] || [ "$UPLOAD_REPEATS" -gt 0 ] || die "nothing to do: ASSETS is empty and UPLOAD_REPEATS=0"
BODIES=(json); [ "$SKIP_BINARY" = 1 ] || BODIES+=(binary)
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port_busy "$PORT" && die "port $PORT is already in use on 127.0.0.1 (set PORT)"
port_busy "$PEER_PORT" && die "port $PEER_PORT is already in use on 127.0.0.1 (set PEER_PORT)"
[ "$PORT" != "$PEER_PORT" ] || die "PORT and PEER_PORT must differ"

# ---- 2. start both services ------------------------------------------------------------------------------------------
WORK=$(mktemp -d /tmp/posekit-compare.XXXXXX)
LOAD_BEFORE=$(cut -d" " -f1-3 /proc/loadavg 2>/dev/null || echo unknown)  # other work on the machine skews every figure
mkdir -p "$WORK/runs"
POSEKIT_PID=""; PEER_PID=""
cleanup() {
  local rc=$?
  for p in $POSEKIT_PID $PEER_PID; do kill "$p" 2>/dev/null || true; done
  for p in $POSEKIT_PID $PEER_PID; do wait "$p" 2>/dev/null || true; done
  if [ $rc -eq 0 ]; then rm -rf "$WORK"; else echo "compare-peer: failed; logs and raw results kept in $WORK" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

POSEKIT=http://127.0.0.1:$PORT; PEER=http://127.0.0.1:$PEER_PORT
say "starting posekit on $POSEKIT ($JAVA_OPTS)"
# shellcheck disable=SC2086 # JAVA_OPTS is a list of options
"$JAVA" $JAVA_OPTS -jar target/posekit.jar --server.port="$PORT" --server.address=127.0.0.1 \
  --posekit.store.dir="$WORK/store" --logging.level.posekit.access=WARN >"$WORK/posekit.log" 2>&1 &
POSEKIT_PID=$!
say "starting the peer on $PEER"
(cd "$PEER_DIR" && exec node server.mjs --port "$PEER_PORT" --host 127.0.0.1) >"$WORK/peer.log" 2>&1 &
PEER_PID=$!
wait_up() { # NAME PID URL LOG
  local i
  for i in $(seq 1 240); do
    curl -fs -o /dev/null "$3" && return 0
    kill -0 "$2" 2>/dev/null || { tail -n 30 "$4" >&2; die "$1 exited while starting (log above, $4)"; }
    sleep 0.5
  done
  tail -n 30 "$4" >&2; die "$1 did not answer $3 within 120 s"
}
wait_up posekit "$POSEKIT_PID" "$POSEKIT/actuator/health/readiness" "$WORK/posekit.log"
wait_up peer "$PEER_PID" "$PEER/health" "$WORK/peer.log"
SVCS=(posekit peer); declare -A URL=([posekit]=$POSEKIT [peer]=$PEER)

id_of() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$1" || die "no asset id in $1"; }
post() { # SERVICE FILE OUT -> "status seconds"
  curl -sS -o "$3" -w '%{http_code} %{time_total}' -F "file=@$2" "${URL[$1]}/api/v1/assets" \
    || die "upload of $2 to $1 failed (connection)"
}
delete() { # SERVICE ID
  local s
  s=$(curl -sS -o /dev/null -w '%{http_code}' -X DELETE "${URL[$1]}/api/v1/assets/$2") || die "DELETE on $1 failed"
  [ "$s" = 204 ] || die "DELETE /api/v1/assets/$2 on $1 answered $s, not 204"
}
import_count() { # posekit's parse counter (Micrometer timer posekit.import.duration), or -1 if it is not there
  curl -fsS "$POSEKIT/actuator/metrics/posekit.import.duration" 2>/dev/null | python3 -c '
import json, sys
print(int(next(m["value"] for m in json.load(sys.stdin)["measurements"] if m["statistic"] == "COUNT")))' 2>/dev/null || echo -1
}

# ---- 3. upload + parse time of BrainStem -----------------------------------------------------------------------------
UPLOAD_FILE=$GLTF/BrainStem/BrainStem.glb
if [ "$UPLOAD_REPEATS" -gt 0 ]; then
  [ -f "$UPLOAD_FILE" ] || die "no $UPLOAD_FILE"
  say "upload + parse of BrainStem.glb: $UPLOAD_WARMUPS warm-ups, then $UPLOAD_REPEATS timed POSTs on each (POST, DELETE)"
  for svc in "${SVCS[@]}"; do   # deduplication check: new -> 201, same content again -> 200 (same id), deleted -> gone
    r=$(post "$svc" "$UPLOAD_FILE" "$WORK/up1.json"); s1=${r%% *}
    r=$(post "$svc" "$UPLOAD_FILE" "$WORK/up2.json"); s2=${r%% *}
    [ "$s1" = 201 ] && [ "$s2" = 200 ] || die "$svc: expected 201 then 200 for the same upload twice, got $s1 then $s2 ($(head -c 300 "$WORK/up2.json"))"
    id=$(id_of "$WORK/up1.json"); [ "$(id_of "$WORK/up2.json")" = "$id" ] || die "$svc: the duplicate got another id"
    delete "$svc" "$id"
    s=$(curl -sS -o /dev/null -w '%{http_code}' "${URL[$svc]}/api/v1/assets/$id"); [ "$s" = 404 ] || die "$svc: a deleted asset answers $s, not 404"
    : > "$WORK/upload-$svc.txt"
  done
  COUNT_BEFORE=$(import_count)
  for i in $(seq 1 $((UPLOAD_WARMUPS + UPLOAD_REPEATS))); do
    for svc in "${SVCS[@]}"; do   # alternately, never at the same time
      r=$(post "$svc" "$UPLOAD_FILE" "$WORK/up.json"); s=${r%% *}; t=${r#* }
      [ "$s" = 201 ] || die "$svc: a POST after DELETE answered $s, not 201 (so it did not parse again): $(head -c 300 "$WORK/up.json")"
      delete "$svc" "$(id_of "$WORK/up.json")"
      [ "$i" -le "$UPLOAD_WARMUPS" ] || echo "$t" >> "$WORK/upload-$svc.txt"
    done
  done
  COUNT_AFTER=$(import_count)
  if [ "$COUNT_BEFORE" -ge 0 ] && [ "$COUNT_AFTER" -ge 0 ]; then
    parsed=$((COUNT_AFTER - COUNT_BEFORE))
    [ "$parsed" -ge $((UPLOAD_WARMUPS + UPLOAD_REPEATS)) ] \
      || die "posekit parsed only $parsed times for $((UPLOAD_WARMUPS + UPLOAD_REPEATS)) uploads (posekit.import.duration)"
    echo "$parsed" > "$WORK/posekit-parses.txt"
  fi
fi

# ---- 4. wrk runs -----------------------------------------------------------------------------------------------------
bench() { # SERVICE ID CLIP BODY LABEL DURATION -> prints bench.sh's JSON line
  local accept="" out
  [ "$4" = binary ] && accept=application/octet-stream
  echo "---- $1 $5 (DURATION=$6)" >> "$WORK/wrk.log"
  if ! out=$(DURATION=$6 ACCEPT=$accept "$BENCH" "${URL[$1]}" "$2" 0 0 "$3" 2>>"$WORK/wrk.log"); then
    tail -n 20 "$WORK/wrk.log" >&2; die "bench.sh failed against $1 ($5); wrk log: $WORK/wrk.log"
  fi
  if [ "$VERBOSE" = 1 ]; then sed -n "/^---- $1 $5 /,\$p" "$WORK/wrk.log" >&2; fi
  printf '%s\n' "$out" | tail -n 1
}
for k in "${!NAMES[@]}"; do
  name=${NAMES[$k]}; file=$GLTF/$name/$name.glb
  for svc in "${SVCS[@]}"; do
    r=$(post "$svc" "$file" "$WORK/asset-$name-$svc.json"); s=${r%% *}
    [ "$s" = 201 ] || [ "$s" = 200 ] || die "$svc: upload of $name.glb answered $s: $(head -c 300 "$WORK/asset-$name-$svc.json")"
    id=$(id_of "$WORK/asset-$name-$svc.json")
    # the clip by name, or by index resolved to that service's own name for it
    clip=$(python3 - "$WORK/asset-$name-$svc.json" "${CLIPS[$k]}" <<'PY'
import json, sys
d, spec = json.load(open(sys.argv[1])), sys.argv[2]
clips = d.get("clips") or []
c = next((c for c in clips if c.get("name") == spec), None)
if c is None and spec.isdigit() and int(spec) < len(clips):
    c = clips[int(spec)]
if c is None:
    sys.exit("clip %r not found (clips: %s)" % (spec, ", ".join(str(c.get("name")) for c in clips) or "none"))
print(c["name"] if c.get("name") else c["index"])
PY
) || die "$svc: $name.glb has no clip '${CLIPS[$k]}'"
    echo "$id" > "$WORK/id-$name-$svc"; echo "$clip" > "$WORK/clip-$name-$svc"
    # one request per endpoint and body, for the response sizes in the raw results
    enc=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$clip")
    for body in "${BODIES[@]}"; do
      accept=application/json; [ "$body" = binary ] && accept=application/octet-stream
      for ep in "skins/0/matrices" "meshes/0/skinned"; do
        r=$(curl -sS -o /dev/null -H "Accept: $accept" -w '%{http_code} %{size_download}' \
          "${URL[$svc]}/api/v1/assets/$id/$ep?clip=$enc&time=0.1&loop=repeat") || die "$svc: GET $ep failed"
        [ "${r%% *}" = 200 ] || die "$svc: GET $ep of $name ($body) answered ${r%% *}"
        echo "${ep%%/*} $body ${r#* }" >> "$WORK/sizes-$name-$svc"
      done
    done
  done
  [ "$(cat "$WORK/clip-$name-posekit")" = "$(cat "$WORK/clip-$name-peer")" ] \
    || say "note: $name's clip is '$(cat "$WORK/clip-$name-posekit")' on posekit, '$(cat "$WORK/clip-$name-peer")' on the peer"
  for svc in "${SVCS[@]}"; do
    if [ "$WARMUP" != 0 ]; then
      say "$name on $svc: warm-up ($WARMUP per endpoint, not recorded)"
      bench "$svc" "$(cat "$WORK/id-$name-$svc")" "$(cat "$WORK/clip-$name-$svc")" json "$name-warmup" "$WARMUP" >/dev/null
    fi
  done
  for body in "${BODIES[@]}"; do
    for svc in "${SVCS[@]}"; do   # one after the other: wrk and the service share the 2 cores, never two services
      say "$name $body on $svc: matrices, then skinned, $DURATION each (clip $(cat "$WORK/clip-$name-$svc"))"
      bench "$svc" "$(cat "$WORK/id-$name-$svc")" "$(cat "$WORK/clip-$name-$svc")" "$body" "$name-$body" "$DURATION" \
        > "$WORK/runs/$name.$body.$svc.json"
    done
  done
done

# ---- 5. report -------------------------------------------------------------------------------------------------------
GIT_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
C_DURATION=$DURATION C_WARMUP=$WARMUP C_CONNECTIONS=$CONNECTIONS C_THREADS=$THREADS C_JAVA_OPTS=$JAVA_OPTS \
C_UPLOAD_REPEATS=$UPLOAD_REPEATS C_UPLOAD_WARMUPS=$UPLOAD_WARMUPS C_REV=$GIT_REV C_LOAD_BEFORE=$LOAD_BEFORE \
  python3 - "$WORK" "$RESULTS" "${NAMES[*]:-}" "${BODIES[*]}" <<'PY'
import datetime, json, math, os, statistics, sys
work, results, names, bodies = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
svcs, env = ["posekit", "peer"], os.environ
read = lambda p: open(os.path.join(work, p)).read().strip()
out = {
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "config": {"duration": env["C_DURATION"], "warmup": env["C_WARMUP"], "connections": int(env["C_CONNECTIONS"]),
               "threads": int(env["C_THREADS"]), "java_opts": env["C_JAVA_OPTS"],
               "upload_repeats": int(env["C_UPLOAD_REPEATS"]), "upload_warmups": int(env["C_UPLOAD_WARMUPS"]),
               "posekit_rev": env["C_REV"], "peer": "stock three.js (no --exact)",
               "cpus": os.cpu_count(), "loadavg_before": env["C_LOAD_BEFORE"],
               "loadavg_after": open("/proc/loadavg").read().split()[:3] if os.path.exists("/proc/loadavg") else None},
}

def q(xs, f):  # nearest rank
    xs = sorted(xs)
    return xs[max(0, math.ceil(f * len(xs)) - 1)]

lines = []
if int(env["C_UPLOAD_REPEATS"]) > 0:
    up = {"asset": "BrainStem.glb", "repeats": int(env["C_UPLOAD_REPEATS"]), "warmups": int(env["C_UPLOAD_WARMUPS"])}
    for s in svcs:
        ms = [float(x) * 1000 for x in read("upload-%s.txt" % s).split()]
        up[s] = {"median_ms": round(statistics.median(ms), 2), "p90_ms": round(q(ms, 0.9), 2),
                 "samples_ms": [round(x, 2) for x in ms]}
    up["ratio_peer_over_posekit"] = round(up["peer"]["median_ms"] / up["posekit"]["median_ms"], 2)
    if os.path.exists(os.path.join(work, "posekit-parses.txt")):
        up["posekit_parses"] = int(read("posekit-parses.txt"))
    out["upload"] = up

out["assets"], out["runs"], rows = {}, [], []
for n in names:
    a = out["assets"][n] = {}
    for s in svcs:
        summ = json.load(open(os.path.join(work, "asset-%s-%s.json" % (n, s))))
        m0 = (summ.get("meshes") or [{}])[0]
        sizes = {}
        for l in read("sizes-%s-%s" % (n, s)).splitlines():
            ep, body, size = l.split()
            sizes["%s_%s" % (ep, body)] = int(size)
        a[s] = {"id": summ["id"], "clip": read("clip-%s-%s" % (n, s)),
                "clips": [c.get("name") for c in summ.get("clips", [])],
                "skin0_joints": len((summ.get("skins") or [{}])[0].get("joints", [])),
                "mesh0_primitives": len(m0.get("primitives", [])),
                "mesh0_vertices": sum(p.get("vertexCount", 0) for p in m0.get("primitives", [])),
                "response_bytes": sizes}
    for key in ("skin0_joints", "mesh0_vertices"):
        if a["posekit"][key] != a["peer"][key]:
            print("note: %s %s differs: posekit %s, peer %s" % (n, key, a["posekit"][key], a["peer"][key]), file=sys.stderr)
    for body in bodies:
        res = {s: json.loads(read("runs/%s.%s.%s.json" % (n, body, s))) for s in svcs}
        for s in svcs:
            out["runs"].append({**res[s], "asset": n, "id": res[s]["asset"], "body": body, "service": s})
        for ep in ("matrices", "skinned"):
            r = {s: res[s][ep] for s in svcs}
            ratio = r["posekit"]["rps"] / r["peer"]["rps"] if r["peer"]["rps"] else None
            rows.append({"asset": n, "endpoint": ep, "body": body,
                         "posekit": {k: r["posekit"].get(k) for k in ("rps", "p50_ms", "p99_ms", "errors", "non2xx")},
                         "peer": {k: r["peer"].get(k) for k in ("rps", "p50_ms", "p99_ms", "errors", "non2xx")},
                         "ratio_posekit_over_peer": round(ratio, 2) if ratio is not None else None})
            sz = a["posekit"]["response_bytes"].get("%s_%s" % ("skins" if ep == "matrices" else "meshes", body)), \
                 a["peer"]["response_bytes"].get("%s_%s" % ("skins" if ep == "matrices" else "meshes", body))
            if body == "binary" and sz[0] != sz[1]:
                print("note: %s %s binary bodies differ in size: posekit %s bytes, peer %s" % (n, ep, *sz), file=sys.stderr)
out["rows"] = rows

def f(x, d=1):
    return "-" if x is None else ("%.*f" % (d, x))
def errs(r):
    return "%d / %d" % (r["posekit"]["errors"] or 0, r["peer"]["errors"] or 0)
if rows:
    lines.append("| asset | endpoint | body | posekit req/s | p50 / p99 ms | peer req/s | p50 / p99 ms | posekit/peer | errors posekit / peer |")
    lines.append("|---|---|---|---:|---|---:|---|---:|---|")
    for r in rows:
        p, e = r["posekit"], r["peer"]
        lines.append("| %s | %s | %s | %s | %s / %s | %s | %s / %s | %s× | %s |" % (
            r["asset"], r["endpoint"], "JSON" if r["body"] == "json" else "binary", f(p["rps"]), f(p["p50_ms"], 2),
            f(p["p99_ms"], 2), f(e["rps"]), f(e["p50_ms"], 2), f(e["p99_ms"], 2), f(r["ratio_posekit_over_peer"], 2), errs(r)))
    lines.append("")
pick = lambda body, s: next((r[s]["rps"] for r in rows if r["asset"] == "BrainStem" and r["endpoint"] == "skinned" and r["body"] == body), None)
bb, pj = pick("binary", "posekit"), pick("json", "peer")
if bb is not None and pj:
    out["brainstem_skinned_posekit_binary_over_peer_json"] = round(bb / pj, 2)
    lines.append("BrainStem skinned binary (posekit) vs peer JSON: %.1f / %.1f req/s = %.1f× (the issue asks ≥ 30×)" % (bb, pj, bb / pj))
if "upload" in out:
    u = out["upload"]
    lines.append("Upload + parse of BrainStem.glb (%d POSTs each, after %d warm-ups): posekit median %.1f ms, p90 %.1f ms; "
                 "peer median %.1f ms, p90 %.1f ms; peer/posekit %.2f×" % (u["repeats"], u["warmups"], u["posekit"]["median_ms"],
                 u["posekit"]["p90_ms"], u["peer"]["median_ms"], u["peer"]["p90_ms"], u["ratio_peer_over_posekit"]))
lines.append("wrk: %d threads, %d connections, %s per run, loopback, one service at a time; raw results: %s" % (
    out["config"]["threads"], out["config"]["connections"], out["config"]["duration"], results))
print("\n".join(lines))
text = json.dumps(out)
with open(results, "w") as fh:
    fh.write(text + "\n")
print()
print(text)
PY
