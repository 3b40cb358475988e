# Sourced by the load scripts: one measured wrk run against a running service, with the service's CPU time.
#   measure PID URL_WITH_PATH [CLIP] [CLIP_DURATION] [ACCEPT]
# Environment: DURATION (10s) CONNECTIONS (32) WRK_THREADS (1) WRK_CPUS (taskset list for wrk, e.g. 0; empty = any)
#   WRK_TIMEOUT (2s)
# Prints one line of JSON: the wrk RESULT fields plus cpu_s (the service's utime + stime over the run, from
# /proc/PID/stat, every thread) and cpu_us_per_req (cpu_s / requests).
_clk_tck=$(getconf CLK_TCK)
_here_measure=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cpu_ticks() { # PID -> utime + stime in clock ticks (fields 14 and 15 after the command name)
  local stat; stat=$(cat "/proc/$1/stat") || return 1
  stat=${stat##*) }; set -- $stat; echo $(( ${12} + ${13} ))
}
measure() {
  local pid=$1 url=$2 clip=${3:-} clipdur=${4:-0} accept=${5:-} path before after out line pin=()
  path=/${url#*://*/}
  [ -n "${WRK_CPUS:-}" ] && pin=(taskset -c "$WRK_CPUS")
  before=$(cpu_ticks "$pid")
  out=$("${pin[@]}" wrk -t"${WRK_THREADS:-1}" -c"${CONNECTIONS:-32}" -d"${DURATION:-10s}" --timeout "${WRK_TIMEOUT:-2s}" \
    -s "$_here_measure/sample.lua" "$url" -- "$path" "$clip" "$clipdur" "$accept") || return 1
  after=$(cpu_ticks "$pid")
  line=$(printf '%s\n' "$out" | grep '^RESULT ' | tail -n 1)
  [ -n "$line" ] || { printf '%s\n' "$out" >&2; return 1; }
  python3 - "$line" "$before" "$after" "$_clk_tck" <<'PY'
import json, sys
line, before, after, tck = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
r = {k: (float(v) if "." in v else int(v)) for k, v in (kv.split("=") for kv in line.split()[1:])}
r["cpu_s"] = round((after - before) / tck, 3)
r["cpu_us_per_req"] = round(1e6 * r["cpu_s"] / r["requests"], 1) if r["requests"] else None
print(json.dumps(r))
PY
}
