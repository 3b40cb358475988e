-- wrk script: a mix of uploads and sampling requests against posekit, optionally rate-limited.
--   wrk -t2 -c16 -d300s -s load/mixed.lua http://localhost:8080 -- ASSETS TEMPLATE UPLOAD_SHARE RATE
-- ASSETS        comma-separated id:duration pairs of uploaded assets to sample (clip 0)
-- TEMPLATE      path of a .gltf (JSON, data: URIs) uploaded again and again, made unique per request
-- UPLOAD_SHARE  fraction of requests that are uploads (e.g. 0.02)
-- RATE          target requests/s of each connection (0 = as fast as possible): Poisson arrivals, so the total
--               rate is about RATE × connections when responses are fast compared with the gaps
-- Prints, from done(): one "RESULT key=value ..." line.
local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

local function split(s, sep)
  local out = {}
  for part in string.gmatch(s, "([^" .. sep .. "]+)") do table.insert(out, part) end
  return out
end

function init(args)
  assets = {}
  for _, pair in ipairs(split(args[1], ",")) do
    local kv = split(pair, ":")
    table.insert(assets, { id = kv[1], duration = tonumber(kv[2]) })
  end
  local f = assert(io.open(args[2], "rb"))
  template = f:read("*a")
  f:close()
  upload_share = tonumber(args[3]) or 0
  rate = tonumber(args[4]) or 0
  counter = 0
  uploads, samples, non2xx, status5xx = 0, 0, 0, 0
  math.randomseed(os.time() * 1000 + (id or 0) * 7919)
end

-- wrk calls delay() before each request of a connection: exponential gaps give Poisson arrivals
function delay()
  if rate <= 0 then return 0 end
  return -math.log(1 - math.random()) * 1000 / rate
end

local endpoints = {
  { path = "/skins/0/matrices", accept = "application/json" },
  { path = "/skins/0/matrices", accept = "application/octet-stream" },
  { path = "/meshes/0/skinned", accept = "application/octet-stream" },
  { path = "/pose", accept = "application/json", extra = "&space=model" },
}

function request()
  if upload_share > 0 and math.random() < upload_share then
    counter = counter + 1
    -- unique content: the same asset with a different "extras" member, so each upload is new work
    local body = string.gsub(template, '^%s*{', string.format('{"extras":{"load":"%d-%d-%d"},', id or 0, counter, math.random(1e9)), 1)
    uploads = uploads + 1
    return wrk.format("POST", "/api/v1/assets", { ["Content-Type"] = "model/gltf+json" }, body)
  end
  samples = samples + 1
  local a = assets[math.random(#assets)]
  local e = endpoints[math.random(#endpoints)]
  local q = string.format("?clip=0&time=%.5f&loop=repeat%s", math.random() * a.duration * 1.37, e.extra or "")
  return wrk.format("GET", "/api/v1/assets/" .. a.id .. e.path .. q, { ["Accept"] = e.accept })
end

function response(status, headers, body)
  if status >= 300 then non2xx = non2xx + 1 end
  if status >= 500 then status5xx = status5xx + 1 end
end

function done(summary, latency, requests)
  local up, sa, bad, five = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    up = up + (t:get("uploads") or 0)
    sa = sa + (t:get("samples") or 0)
    bad = bad + (t:get("non2xx") or 0)
    five = five + (t:get("status5xx") or 0)
  end
  local e = summary.errors
  io.write(string.format(
    "RESULT requests=%d duration_s=%.1f rps=%.1f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f max_ms=%.2f uploads=%d samples=%d non2xx=%d status5xx=%d socket_errors=%d timeouts=%d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000, latency.max / 1000,
    up, sa, bad, five, e.connect + e.read + e.write, e.timeout))
end
