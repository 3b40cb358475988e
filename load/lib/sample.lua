-- wrk script for posekit-style sampling GETs: PATH?clip=CLIP&time=<random in [0, 1.37*DURATION)>&loop=repeat
-- args (after --): PATH [CLIP] [DURATION] [ACCEPT]; without CLIP the path is requested as is.
-- done() prints one line: RESULT requests= duration_s= rps= p50_ms= p90_ms= p99_ms= p999_ms= max_ms= errors= non2xx= bytes=
--   err_connect= err_read= err_write= err_timeout=   (errors is their sum; non2xx counts statuses >= 400)
local threads = {}
function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end
function init(args)
  path, clip, duration, accept = args[1], args[2], tonumber(args[3] or "0"), args[4]
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
  headers = {}
  if accept and accept ~= "" then headers["Accept"] = accept end
  -- a secured service (compare-peer.sh AUTH=key): the bearer token on every request
  local auth = os.getenv("POSEKIT_AUTHORIZATION")
  if auth and auth ~= "" then headers["Authorization"] = auth end
end
local function urlencode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end
function request()
  local q = ""
  if clip and clip ~= "" then
    q = string.format("?clip=%s&time=%.6f&loop=repeat", urlencode(clip), math.random() * duration * 1.37)
  end
  return wrk.format("GET", path .. q, headers)
end
function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("RESULT requests=%d duration_s=%.3f rps=%.1f p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f errors=%d non2xx=%d bytes=%d err_connect=%d err_read=%d err_write=%d err_timeout=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    latency:percentile(99.9) / 1000, latency.max / 1000,
    e.connect + e.read + e.write + e.timeout, e.status, summary.bytes, e.connect, e.read, e.write, e.timeout))
end
