// What the request span costs a server with no OpenTelemetry SDK registered (the default): the
// API's no-op tracer asked for a span, nanoseconds per request, against an empty loop.
// `node bench/trace-noop.ts [millions]`; docs/benchmarks.md has the figure.
import { startRequestSpan } from '../src/http/ops/tracing.ts'

const calls = Number(process.argv[2] ?? 2) * 1e6
const headers = { 'content-type': 'application/json' }
const time = (work: () => unknown) => {
  const started = process.hrtime.bigint()
  for (let i = 0; i < calls; i++) work()
  return Number(process.hrtime.bigint() - started) / calls
}
let kept: unknown = null
const runs: number[] = []
for (let round = 0; round < 5; round++) {
  const empty = time(() => (kept = headers))
  const span = time(() => (kept = startRequestSpan(headers, 'POST', '/v1/judge', '/v1/judge', 'id')))
  runs.push(span - empty)
}
if (kept !== null) throw new Error('a span was started: an SDK is registered')
console.log(
  `no-op request span: ${[...runs].sort((a, b) => a - b)[2].toFixed(0)} ns per request (median of 5 rounds of ${calls} calls; each round ${runs.map((r) => r.toFixed(0)).join(', ')})`,
)
