#!/usr/bin/env bash
# What routing by asset id is worth: posekit replicas on a shared S3 store behind nginx (docker-compose.scale.yml).
#   load/scale-bench.sh        (needs target/posekit.jar: ./mvnw -DskipTests package; docker + docker-compose; wrk;
#                               python3; curl)
# 1. checks the prerequisites and takes /tmp/posekit-bench.lock (waits while another live benchmark holds it);
# 2. builds the topology's images (with LOCAL_IMAGES=1, or when no registry answers: the local override
#    docker-compose.scale.local.yml, s3proxy instead of MinIO, prepared by deploy/local/prepare.sh);
# 3. writes ASSETS distinct variants of ASSET_FILE (a .glb): the same file with k×4 more trailing spaces in its JSON
#    chunk (lengths fixed), so each has its own SHA-256 (= asset id) and parses to the same model;
# 4. one replica behind nginx, cache 1MB: uploads every variant through nginx, and reads one parsed model's cache
#    weight from the replica's Caffeine metrics (cache.eviction.weight / cache.evictions: the variants weigh the
#    same); sizes each replica's cache (POSEKIT_CACHE_MAX_BYTES) to CACHE_SHARE (1/3) of the working set;
# 5. three runs on fresh replicas (caches empty), each WARMUP of unrecorded load then wrk for DURATION on
#    skins/0/matrices and DURATION on meshes/0/skinned, random asset × random time (load/scale.lua):
#      single  1 replica behind nginx
#      hash    3 replicas, nginx routes by asset id (deploy/nginx/nginx.conf)
#      rr      3 replicas, round robin (deploy/nginx/nginx-roundrobin.conf)
#    and, per replica over the measured window only, the cache gets (hit/miss, /actuator/metrics/cache.gets) and
#    the parses (posekit.import.duration); in hash mode also which replica owns each asset (X-Posekit-Upstream);
# 6. prints a markdown table, writes every raw figure as one JSON object to RESULTS and prints that JSON last;
#    tears the topology down (volumes too) unless KEEP=1.
# Environment: DURATION (20s, per wrk run) WARMUP (10s, per configuration; 0 = none) ASSETS (60)
#   ASSET_FILE (../shared/conformance/assets/gltf/Fox/Fox.glb) CLIP (Walk for Fox, else the first clip)
#   CACHE_SHARE (0.34: the share of all variants one replica's cache holds) PORT (18081, nginx on 127.0.0.1)
#   CONNECTIONS (32) THREADS (2) RESULTS (/tmp/posekit-scale.json) LOCAL_IMAGES (auto; 1 = local override, 0 = not)
#   PROJECT (posekit-scale, the compose project name) KEEP (0) ACCEPT (application/json)
# On a 2-core machine the 3 replicas, nginx, the S3 server and wrk share the cores: expect no throughput gain from
# more replicas there; the point is the cache hit ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${DURATION:-20s}; WARMUP=${WARMUP:-10s}; ASSETS=${ASSETS:-60}; CACHE_SHARE=${CACHE_SHARE:-0.34}
ASSET_FILE=${ASSET_FILE:-../shared/conformance/assets/gltf/Fox/Fox.glb}; CLIP=${CLIP:-}
PORT=${PORT:-18081}; CONNECTIONS=${CONNECTIONS:-32}; THREADS=${THREADS:-2}; RESULTS=${RESULTS:-/tmp/posekit-scale.json}
LOCAL_IMAGES=${LOCAL_IMAGES:-auto}; PROJECT=${PROJECT:-posekit-scale}; KEEP=${KEEP:-0}
ACCEPT=${ACCEPT:-application/json}
LOCK=/tmp/posekit-bench.lock

say() { echo "== $(date +%H:%M:%S) $*" >&2; }
die() { echo "scale-bench: $*" >&2; exit 1; }

# ---- 1. prerequisites ------------------------------------------------------------------------------------------------
[ -f target/posekit.jar ] || die "target/posekit.jar is missing: build it first with ./mvnw -DskipTests package"
for c in docker wrk python3 curl; do command -v "$c" >/dev/null || die "$c is needed"; done
if command -v docker-compose >/dev/null; then DC0=(docker-compose); elif docker compose version >/dev/null 2>&1; then
  DC0=(docker compose); else die "docker-compose (or docker compose v2) is needed"; fi
docker info >/dev/null 2>&1 || die "no Docker engine answers (on registry-less machines: ../shared/docker/README.md)"
[ -f "$ASSET_FILE" ] || die "no $ASSET_FILE (set ASSET_FILE to a .glb)"
[[ $ASSETS =~ ^[0-9]+$ ]] && [ "$ASSETS" -ge 3 ] || die "ASSETS must be a whole number >= 3 (got '$ASSETS')"
(exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && die "port $PORT is already in use on 127.0.0.1 (set PORT)"
# the round-robin configuration must be nginx.conf without the hash line, and nothing else
diff <(sed '/^        hash \$asset_id consistent;$/d; /^#/d' deploy/nginx/nginx.conf) \
     <(sed '/^#/d' deploy/nginx/nginx-roundrobin.conf) >/dev/null \
  || die "deploy/nginx/nginx-roundrobin.conf has drifted from nginx.conf (it must differ only by the hash line)"

# ---- the benchmark lock (a convention of this machine's workers) ----------------------------------------------------
take_lock() {
  local other
  while true; do
    if ( set -o noclobber; echo $$ > "$LOCK" ) 2>/dev/null; then return 0; fi
    other=$(cat "$LOCK" 2>/dev/null || true)
    if [ -n "$other" ] && kill -0 "$other" 2>/dev/null; then
      say "waiting: another benchmark (pid $other) holds $LOCK"; sleep 30
    else
      say "removing a stale $LOCK (pid '${other}' is gone)"; rm -f "$LOCK"
    fi
  done
}

# ---- 2. images -------------------------------------------------------------------------------------------------------
if [ "$LOCAL_IMAGES" = auto ]; then
  if docker image inspect nginx:1.28.0 >/dev/null 2>&1 || timeout 60 docker pull -q nginx:1.28.0 >/dev/null 2>&1; then
    LOCAL_IMAGES=0; else LOCAL_IMAGES=1; fi
fi
DC=("${DC0[@]}" -p "$PROJECT" -f docker-compose.scale.yml)
if [ "$LOCAL_IMAGES" = 1 ]; then
  say "no registry (or LOCAL_IMAGES=1): local override, s3proxy + Debian's nginx on the local base images"
  deploy/local/prepare.sh
  DC+=(-f docker-compose.scale.local.yml)
fi

WORK=$(mktemp -d /tmp/posekit-scale.XXXXXX)
mkdir -p "$WORK/variants" "$WORK/runs" "$WORK/metrics"
LOCKED=0
cleanup() {
  local rc=$?
  if [ "$KEEP" != 1 ]; then
    "${DC[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
  else
    say "KEEP=1: the topology is still up (${DC[*]} down -v to remove it)"
  fi
  [ "$LOCKED" = 1 ] && [ "$(cat "$LOCK" 2>/dev/null)" = $$ ] && rm -f "$LOCK"
  if [ $rc -eq 0 ]; then rm -rf "$WORK"; else echo "scale-bench: failed; logs kept in $WORK" >&2; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

export POSEKIT_PORT=$PORT
say "building the images"
"${DC[@]}" build >"$WORK/build.log" 2>&1 || { tail -n 30 "$WORK/build.log" >&2; die "image build failed ($WORK/build.log)"; }

# ---- 3. variants -----------------------------------------------------------------------------------------------------
python3 load/glb-variants.py "$ASSET_FILE" "$ASSETS" "$WORK/variants"
say "$ASSETS variants of $(basename "$ASSET_FILE") in $WORK/variants"

# ---- helpers ---------------------------------------------------------------------------------------------------------
BASE=http://127.0.0.1:$PORT
cid() { "${DC[@]}" ps -q "$1"; }
declare -A IPS=()
remember_ips() { # SERVICE... : their addresses on the compose network, read once per (re)start
  local s
  for s in "$@"; do IPS[$s]=$(docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(cid "$s")"); done
}
ip_of() { [ -n "${IPS[$1]:-}" ] || die "no address known for $1"; echo "${IPS[$1]}"; }
wait_healthy() { # SERVICE...
  local s c st i
  for s in "$@"; do
    for i in $(seq 1 180); do
      c=$(cid "$s"); st=$( [ -n "$c" ] && docker inspect -f '{{.State.Health.Status}}' "$c" 2>/dev/null || echo none)
      [ "$st" = healthy ] && break
      [ "$i" = 180 ] && { "${DC[@]}" logs --tail 40 "$s" >&2; die "$s is not healthy after 180 s (status $st)"; }
      sleep 1
    done
  done
}
metric() { # SERVICE NAME [TAG...] -> the COUNT (or VALUE) measurement, 0 when the meter does not exist yet
  local svc=$1 name=$2 q="" t; shift 2
  for t in "$@"; do q="$q${q:+&}tag=$t"; done
  curl -fsS "http://$(ip_of "$svc"):8080/actuator/metrics/$name${q:+?$q}" 2>/dev/null | python3 -c '
import json, sys
m = {x["statistic"]: x["value"] for x in json.load(sys.stdin)["measurements"]}
print(int(m.get("COUNT", m.get("VALUE", 0))))' 2>/dev/null || echo 0
}
snapshot() { # FILE SERVICE... -> one JSON object {service: {hit, miss, parses, evictions, size}}
  local f=$1 s; shift
  { echo "{"; local first=1
    for s in "$@"; do
      [ $first = 1 ] || echo ","; first=0
      printf '"%s": {"hit": %s, "miss": %s, "parses": %s, "evictions": %s, "eviction_weight": %s, "size": %s, "ip": "%s"}' \
        "$s" "$(metric "$s" cache.gets cache:assets result:hit)" "$(metric "$s" cache.gets cache:assets result:miss)" \
        "$(metric "$s" posekit.import.duration)" "$(metric "$s" cache.evictions cache:assets)" \
        "$(metric "$s" cache.eviction.weight cache:assets)" "$(metric "$s" cache.size cache:assets)" "$(ip_of "$s")"
    done
    echo "}"; } > "$f"
}
start_replicas() { # CACHE_BYTES NGINX_CONF SERVICE... : fresh replicas (empty caches), then a fresh nginx
  local cache=$1 conf=$2; shift 2
  say "starting $* (POSEKIT_CACHE_MAX_BYTES=$cache), nginx with $(basename "$conf")"
  "${DC[@]}" stop nginx >/dev/null 2>&1 || true
  IPS=()
  POSEKIT_CACHE_MAX_BYTES=$cache "${DC[@]}" up -d --no-deps --force-recreate "$@" >>"$WORK/compose.log" 2>&1 \
    || { tail -n 20 "$WORK/compose.log" >&2; die "docker-compose up $* failed"; }
  wait_healthy "$@"
  remember_ips "$@"
  # nginx resolves the replicas' names when it starts: recreate it after them
  POSEKIT_NGINX_CONF=$conf "${DC[@]}" up -d --no-deps --force-recreate nginx >>"$WORK/compose.log" 2>&1 \
    || { tail -n 20 "$WORK/compose.log" >&2; die "docker-compose up nginx failed"; }
  wait_healthy nginx
  curl -fsS -o /dev/null "$BASE/nginx-health" || die "nginx does not answer on $BASE"
}
wrk_run() { # LABEL ENDPOINT DURATION -> RESULT line
  local out
  echo "---- $1 $2 $3" >> "$WORK/wrk.log"
  out=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"$3" --timeout 10s --latency -s load/scale.lua "$BASE" -- \
        "$WORK/ids" "$2" "$CLIP_Q" "$CLIP_DURATION" "$ACCEPT" 2>>"$WORK/wrk.log") || { tail -n 20 "$WORK/wrk.log" >&2; die "wrk failed ($1 $2)"; }
  echo "$out" >> "$WORK/wrk.log"
  grep '^RESULT ' <<<"$out" | tail -n 1
}
measure() { # LABEL SERVICE... : warm-up, then matrices and skinned, with metric snapshots around each
  local label=$1; shift
  if [ "$WARMUP" != 0 ]; then
    say "$label: warm-up $WARMUP (matrices, then skinned; not recorded)"
    wrk_run "$label-warmup" matrices "$WARMUP" >/dev/null
    wrk_run "$label-warmup" skinned "$WARMUP" >/dev/null
  fi
  for ep in matrices skinned; do
    snapshot "$WORK/metrics/$label.$ep.before.json" "$@"
    say "$label: $ep for $DURATION"
    wrk_run "$label" "$ep" "$DURATION" > "$WORK/runs/$label.$ep.txt"
    snapshot "$WORK/metrics/$label.$ep.after.json" "$@"
    cat "$WORK/runs/$label.$ep.txt" >&2
  done
}

# ---- 4. calibration + uploads: one replica behind nginx --------------------------------------------------------------
take_lock; LOCKED=1
LOAD_BEFORE=$(cut -d" " -f1-3 /proc/loadavg)
say "load average before: $LOAD_BEFORE"
"${DC[@]}" down -v --remove-orphans >/dev/null 2>&1 || true
sed '/^        server posekit-[23]:8080 /d' deploy/nginx/nginx.conf > "$WORK/nginx-single.conf"
chmod 644 "$WORK/nginx-single.conf"
say "starting the S3 server"
"${DC[@]}" up -d --no-deps minio >>"$WORK/compose.log" 2>&1 || { tail -n 20 "$WORK/compose.log" >&2; die "cannot start minio"; }
wait_healthy minio
start_replicas 1MB "$WORK/nginx-single.conf" posekit-1

say "uploading $ASSETS variants through nginx"
: > "$WORK/ids"
for f in "$WORK"/variants/*.glb; do
  code=$(curl -sS -o "$WORK/upload.json" -w '%{http_code}' -F "file=@$f" "$BASE/api/v1/assets") || die "upload of $f failed"
  [ "$code" = 201 ] || die "upload of $(basename "$f") answered $code, not 201: $(head -c 400 "$WORK/upload.json")"
  python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' "$WORK/upload.json" >> "$WORK/ids"
done
[ "$(sort -u "$WORK/ids" | wc -l)" = "$ASSETS" ] || die "the $ASSETS uploads did not get $ASSETS distinct ids"
cp "$WORK/upload.json" "$WORK/summary.json"
read -r CLIP_NAME CLIP_DURATION < <(python3 - "$WORK/summary.json" "$CLIP" "$ASSET_FILE" <<'PY'
import json, os, sys
clips = json.load(open(sys.argv[1]))["clips"]
want = sys.argv[2] or ("Walk" if os.path.basename(sys.argv[3]) == "Fox.glb" else "")
c = next((c for c in clips if c["name"] == want), None) if want else clips[0]
if c is None:
    sys.exit("no clip %r (clips: %s)" % (want, ", ".join(c["name"] for c in clips)))
print(c["name"], c["duration"])
PY
) || die "no clip '$CLIP' in the asset"
CLIP_Q=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$CLIP_NAME")
sleep 2   # Caffeine evicts in its maintenance cycle
snapshot "$WORK/metrics/calibration.json" posekit-1
read -r WEIGHT CACHE_BYTES < <(python3 - "$WORK/metrics/calibration.json" "$ASSETS" "$CACHE_SHARE" <<'PY'
import json, math, sys
m, n, share = json.load(open(sys.argv[1]))["posekit-1"], int(sys.argv[2]), float(sys.argv[3])
if m["evictions"] == 0:
    sys.exit("no eviction with a 1MB cache: the variants are too small to size the cache from (use more ASSETS)")
w = m["eviction_weight"] / m["evictions"]
print(int(round(w)), max(1 << 20, int(math.ceil(share * n * w))))
PY
) || die "cannot read a model's cache weight from posekit-1's metrics ($(cat "$WORK/metrics/calibration.json"))"
say "one parsed model weighs $WEIGHT bytes in the cache; working set $((WEIGHT * ASSETS)) bytes; per-replica cache $CACHE_BYTES bytes"

# ---- 5. the three configurations -------------------------------------------------------------------------------------
start_replicas "$CACHE_BYTES" "$WORK/nginx-single.conf" posekit-1
measure single posekit-1

start_replicas "$CACHE_BYTES" "$PWD/deploy/nginx/nginx.conf" posekit-1 posekit-2 posekit-3
# ownership: each asset's GETs must always reach the same replica
: > "$WORK/owners"
while read -r id; do
  ups=""
  for t in 0.1 0.2 0.3; do
    u=$(curl -fsS -o /dev/null -D - "$BASE/api/v1/assets/$id/skins/0/matrices?clip=$CLIP_Q&time=$t" \
        | tr -d '\r' | sed -n 's/^[Xx]-[Pp]osekit-[Uu]pstream: //p') \
      || die "GET of asset $id through nginx failed (hash routing, 3 replicas): does every replica read the shared store?"
    ups="$ups $u"
  done
  echo "$id$ups" >> "$WORK/owners"
done < "$WORK/ids"
measure hash posekit-1 posekit-2 posekit-3

start_replicas "$CACHE_BYTES" "$PWD/deploy/nginx/nginx-roundrobin.conf" posekit-1 posekit-2 posekit-3
measure rr posekit-1 posekit-2 posekit-3
LOAD_AFTER=$(cut -d" " -f1-3 /proc/loadavg)
rm -f "$LOCK"; LOCKED=0

# ---- 6. report -------------------------------------------------------------------------------------------------------
GIT_REV=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
C_DURATION=$DURATION C_WARMUP=$WARMUP C_CONNECTIONS=$CONNECTIONS C_THREADS=$THREADS C_REV=$GIT_REV \
C_LOAD_BEFORE=$LOAD_BEFORE C_LOAD_AFTER=$LOAD_AFTER C_ASSETS=$ASSETS C_ASSET_FILE=$(basename "$ASSET_FILE") \
C_CLIP=$CLIP_NAME C_WEIGHT=$WEIGHT C_CACHE=$CACHE_BYTES C_SHARE=$CACHE_SHARE C_LOCAL=$LOCAL_IMAGES C_ACCEPT=$ACCEPT \
  python3 - "$WORK" "$RESULTS" <<'PY'
import collections, datetime, json, os, sys
work, results = sys.argv[1], sys.argv[2]
env = os.environ
kv = lambda line: {k: (float(v) if v.replace(".", "", 1).isdigit() else v)
                   for k, v in (p.split("=", 1) for p in line.replace("RESULT ", "").split())}
out = {
    "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    "config": {"duration": env["C_DURATION"], "warmup": env["C_WARMUP"], "connections": int(env["C_CONNECTIONS"]),
               "threads": int(env["C_THREADS"]), "posekit_rev": env["C_REV"], "cpus": os.cpu_count(),
               "loadavg_before": env["C_LOAD_BEFORE"], "loadavg_after": env["C_LOAD_AFTER"],
               "assets": int(env["C_ASSETS"]), "asset_file": env["C_ASSET_FILE"], "clip": env["C_CLIP"],
               "accept": env["C_ACCEPT"], "model_cache_weight_bytes": int(env["C_WEIGHT"]),
               "working_set_bytes": int(env["C_WEIGHT"]) * int(env["C_ASSETS"]),
               "cache_max_bytes_per_replica": int(env["C_CACHE"]), "cache_share": float(env["C_SHARE"]),
               "local_images": env["C_LOCAL"] == "1"},
    "calibration": json.load(open(os.path.join(work, "metrics", "calibration.json"))),
}
ip_name = {}
runs, rows = [], []
for label, n in (("single", 1), ("hash", 3), ("rr", 3)):
    gets = {"hit": 0, "miss": 0}
    for ep in ("matrices", "skinned"):
        r = kv(open(os.path.join(work, "runs", "%s.%s.txt" % (label, ep))).read().strip())
        before = json.load(open(os.path.join(work, "metrics", "%s.%s.before.json" % (label, ep))))
        after = json.load(open(os.path.join(work, "metrics", "%s.%s.after.json" % (label, ep))))
        per = {}
        for svc in after:
            ip_name[after[svc]["ip"]] = svc
            d = {k: after[svc][k] - before[svc][k] for k in ("hit", "miss", "parses", "evictions")}
            per[svc] = d
        hit, miss = sum(d["hit"] for d in per.values()), sum(d["miss"] for d in per.values())
        gets["hit"] += hit; gets["miss"] += miss
        ups = {k[len("upstream_"):]: int(v) for k, v in r.items() if k.startswith("upstream_")}
        statuses = {k[len("status_"):]: int(v) for k, v in r.items() if k.startswith("status_")}
        by_replica = {ip_name.get(a.split(":")[0], a): c for a, c in ups.items()}
        run = {"config": label, "replicas": n, "endpoint": ep,
               "rps": r["rps"], "p50_ms": r["p50_ms"], "p90_ms": r["p90_ms"], "p99_ms": r["p99_ms"],
               "max_ms": r["max_ms"], "requests": int(r["requests"]), "non2xx": int(r["non2xx"]),
               "socket_errors": int(r["socket_errors"]), "timeouts": int(r["timeouts"]),
               "cache_hits": hit, "cache_misses": miss,
               "hit_ratio": round(hit / (hit + miss), 4) if hit + miss else None,
               "parses": sum(d["parses"] for d in per.values()), "per_replica": per, "responses_by_upstream": by_replica,
               "error_statuses": statuses}
        runs.append(run)
    rows.append((label, n, gets))
out["runs"] = runs
owners = collections.Counter()
sticky = True
for line in open(os.path.join(work, "owners")):
    id_, *ups = line.split()
    sticky &= len(set(ups)) == 1
    owners[ip_name.get(ups[0].split(":")[0], ups[0])] += 1
out["hash_ownership"] = {"assets_per_replica": dict(sorted(owners.items())), "every_asset_on_one_replica": sticky}
out["hit_ratio"] = {label: round(g["hit"] / (g["hit"] + g["miss"]), 4) if g["hit"] + g["miss"] else None
                    for label, n, g in rows}

names = {"single": "1 replica", "hash": "3 replicas, routed by asset id", "rr": "3 replicas, round robin"}
lines = ["| configuration | endpoint | req/s | p50 ms | p99 ms | errors | cache hit ratio | parses |",
         "|---|---|---:|---:|---:|---:|---:|---:|"]
for r in runs:
    lines.append("| %s | %s | %.0f | %.2f | %.2f | %d | %s | %d |" % (
        names[r["config"]], r["endpoint"], r["rps"], r["p50_ms"], r["p99_ms"],
        r["non2xx"] + r["socket_errors"] + r["timeouts"],
        "-" if r["hit_ratio"] is None else "%.1f %%" % (100 * r["hit_ratio"]), r["parses"]))
lines.append("")
for r in runs:
    if r["error_statuses"]:
        lines.append("Errors, %s %s: %s (by upstream: %s)" % (names[r["config"]], r["endpoint"], ", ".join(
            "%s × %d" % kv_ for kv_ in sorted(r["error_statuses"].items())), r["responses_by_upstream"]))
c = out["config"]
lines.append("Cache hit ratio over both measured runs: " + ", ".join(
    "%s %.1f %%" % (names[k], 100 * v) for k, v in out["hit_ratio"].items() if v is not None))
lines.append("%d variants of %s (clip %s), one parsed model %d bytes in the cache, working set %d bytes, cache per "
             "replica %d bytes (%.0f %% of it); hash routing: assets per replica %s, every asset always on one replica: %s"
             % (c["assets"], c["asset_file"], c["clip"], c["model_cache_weight_bytes"], c["working_set_bytes"],
                c["cache_max_bytes_per_replica"], 100 * c["cache_max_bytes_per_replica"] / c["working_set_bytes"],
                out["hash_ownership"]["assets_per_replica"], sticky))
lines.append("wrk: %d threads, %d connections, %s per run after %s of warm-up, through nginx; %d cores; load average "
             "before %s, after %s; raw results: %s" % (c["threads"], c["connections"], c["duration"], c["warmup"],
             c["cpus"], c["loadavg_before"], " ".join(c["loadavg_after"].split()), results))
print("\n".join(lines))
text = json.dumps(out)
with open(results, "w") as fh:
    fh.write(text + "\n")
print()
print(text)
PY
