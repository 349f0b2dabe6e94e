-- wrk script of bench/load.ts: each connection sends the requests of WRK_BODIES (one JSON body a
-- line) in turn as POST WRK_PATH, with the bearer token WRK_TOKEN when set, and the run ends by
-- printing its figures as one JSON line (latencies in microseconds) for the bench to read.
local bodies = {}
for line in io.lines(os.getenv("WRK_BODIES")) do
  if #line > 0 then bodies[#bodies + 1] = line end
end
local headers = { ["Content-Type"] = "application/json" }
local token = os.getenv("WRK_TOKEN")
if token and #token > 0 then headers["Authorization"] = "Bearer " .. token end
local path = os.getenv("WRK_PATH") or "/"
local requests = {}
local next = 0

-- Formatted in init, once wrk knows the host: a request without a Host header is a 400.
init = function(_)
  for i, body in ipairs(bodies) do
    requests[i] = wrk.format("POST", path, headers, body)
  end
end

request = function()
  next = next % #requests + 1
  return requests[next]
end

done = function(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.status, e.connect + e.read + e.write + e.timeout))
end
