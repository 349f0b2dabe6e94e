import t from 'tap'
import { createProcessMetrics } from '../../../src/http/ops/process-metrics.ts'
import { renderMetrics } from '../../../src/http/ops/metrics.ts'

t.test("the process figures carry prom-client's names and this process's values", async (t) => {
  const figures = createProcessMetrics()
  t.teardown(() => figures.stop())
  await new Promise((resolve) => setTimeout(resolve, 60))
  const text = renderMetrics(figures.sample())
  for (const name of [
    'process_cpu_user_seconds_total',
    'process_cpu_system_seconds_total',
    'process_cpu_seconds_total',
    'process_start_time_seconds',
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_heap_size_total_bytes',
    'nodejs_external_memory_bytes',
    'nodejs_eventloop_lag_seconds',
    'nodejs_eventloop_lag_p99_seconds',
    'nodejs_eventloop_lag_max_seconds',
  ]) {
    t.match(text, new RegExp(`\\n${name} [0-9.e+-]+\\n`), name)
  }
  const start = Number(/process_start_time_seconds (\d+)/.exec(text)![1])
  t.ok(Math.abs(start - (Date.now() / 1000 - process.uptime())) < 2, "the start time is this process's")
  t.match(renderMetrics(figures.sample()), /nodejs_eventloop_lag_seconds \d/, 'a second sample, the monitor reset')
})
