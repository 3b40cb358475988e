-- wrk script for load/scale-bench.sh: GETs of random assets at random times, through the balancer.
--   wrk -t2 -c32 -d20s --latency -s load/scale.lua http://127.0.0.1:18081 -- IDS_FILE ENDPOINT CLIP DURATION ACCEPT
-- IDS_FILE  one asset id per line (the distinct variants uploaded by scale-bench.sh)
-- ENDPOINT  matrices (skins/0/matrices) or skinned (meshes/0/skinned)
-- CLIP      clip name (URL-encoded as given); DURATION its length in seconds: times are uniform in [0, 1.37 × it),
--           loop=repeat, so that most requests ask for a time never asked before
-- ACCEPT    Accept header (default application/json)
-- Prints, from done(): one "RESULT key=value ..." line, with the responses each upstream answered
-- (X-Posekit-Upstream, nginx's $upstream_addr; the group name "posekit" when nginx had no live replica) as
-- upstream_<address>=<count>, error answers as status_<code>=<count>; the first error answer's status and body
-- go to stderr.
local threads = {}

function setup(thread)
  thread:set("tid", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  ids = {}
  for line in io.lines(args[1]) do
    if line:match("^%x+$") then table.insert(ids, line) end
  end
  assert(#ids > 0, "no ids in " .. args[1])
  local ep = args[2] or "matrices"
  if ep == "matrices" then path = "/skins/0/matrices" elseif ep == "skinned" then path = "/meshes/0/skinned"
  else error("ENDPOINT must be matrices or skinned, not " .. ep) end
  clip = args[3] or "0"
  duration = tonumber(args[4]) or 1
  accept = args[5] or "application/json"
  if accept == "" then accept = "application/json" end
  non2xx, status5xx = 0, 0
  upstreams = {}
  statuses = {}
  math.randomseed(os.time() * 1000 + (tid or 0) * 7919)
end

function request()
  local id = ids[math.random(#ids)]
  local q = string.format("?clip=%s&time=%.5f&loop=repeat", clip, math.random() * duration * 1.37)
  return wrk.format("GET", "/api/v1/assets/" .. id .. path .. q, { ["Accept"] = accept })
end

function response(status, headers, body)
  if status >= 300 then
    non2xx = non2xx + 1
    statuses[status] = (statuses[status] or 0) + 1
    if sample == nil then sample = string.format("%d %s", status, ((body or ""):sub(1, 160):gsub("%s+", "_"))) end
  end
  if status >= 500 then status5xx = status5xx + 1 end
  local u = headers["X-Posekit-Upstream"] or headers["x-posekit-upstream"] or "none"
  upstreams[u] = (upstreams[u] or 0) + 1
end

function done(summary, latency, requests)
  local bad, five, ups, sts, first = 0, 0, {}, {}, nil
  for _, t in ipairs(threads) do
    bad = bad + (t:get("non2xx") or 0)
    five = five + (t:get("status5xx") or 0)
    local u = t:get("upstreams") or {}
    for k, v in pairs(u) do ups[k] = (ups[k] or 0) + v end
    for k, v in pairs(t:get("statuses") or {}) do sts[k] = (sts[k] or 0) + v end
    first = first or t:get("sample")
  end
  local parts = {}
  for k, v in pairs(ups) do table.insert(parts, string.format("upstream_%s=%d", (k:gsub("[%s,]+", "+")), v)) end
  for k, v in pairs(sts) do table.insert(parts, string.format("status_%s=%d", k, v)) end
  table.sort(parts)
  if first then
    -- the first error answer, for the log only (stderr)
    io.stderr:write("first error answer: " .. first .. "\n")
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_s=%.2f rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f non2xx=%d status5xx=%d socket_errors=%d timeouts=%d %s\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    bad, five, e.connect + e.read + e.write, e.timeout, table.concat(parts, " ")))
end
