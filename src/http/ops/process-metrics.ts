import { monitorEventLoopDelay } from 'node:perf_hooks'
import { family, type FamilyShape, type FamilySnapshot } from './metrics.ts'

const gauge = (name: string, help: string, merge?: 'max' | 'min'): FamilyShape => ({
  name,
  help,
  type: 'gauge',
  labels: [],
  ...(merge ? { merge } : {}),
})
const counter = (name: string, help: string): FamilyShape => ({ name, help, type: 'counter', labels: [] })

/** The process figures, under the names prom-client gives them, so existing dashboards read them. */
const SHAPES = {
  cpuUser: counter('process_cpu_user_seconds_total', 'Total user CPU time spent in seconds.'),
  cpuSystem: counter('process_cpu_system_seconds_total', 'Total system CPU time spent in seconds.'),
  cpu: counter('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.'),
  start: gauge('process_start_time_seconds', 'Start time of the process since unix epoch in seconds.', 'min'),
  rss: gauge('process_resident_memory_bytes', 'Resident memory size in bytes.'),
  heapUsed: gauge('nodejs_heap_size_used_bytes', 'Process heap size used from Node.js in bytes.'),
  heapTotal: gauge('nodejs_heap_size_total_bytes', 'Process heap size from Node.js in bytes.'),
  external: gauge('nodejs_external_memory_bytes', 'Node.js external memory size in bytes.'),
  lag: gauge('nodejs_eventloop_lag_seconds', 'Lag of event loop in seconds (mean since the last scrape).', 'max'),
  lagP99: gauge(
    'nodejs_eventloop_lag_p99_seconds',
    'The 99th percentile of the recorded event loop delays (since the last scrape).',
    'max',
  ),
  lagMax: gauge(
    'nodejs_eventloop_lag_max_seconds',
    'The maximum recorded event loop delay (since the last scrape).',
    'max',
  ),
}

/** Samples the process figures of this process when asked; `stop` ends the event loop monitor. */
export interface ProcessMetrics {
  sample(): FamilySnapshot[]
  stop(): void
}

/**
 * Starts measuring event loop delay (a native timer, which keeps no process alive) and reads the rest on each sample.
 */
export function createProcessMetrics(): ProcessMetrics {
  const delay = monitorEventLoopDelay({ resolution: 20 })
  delay.enable()
  const start = Date.now() / 1000 - process.uptime()
  const one = (shape: FamilyShape, value: number): FamilySnapshot => {
    const f = family(shape)
    f.set([], value)
    return f.snapshot()
  }
  return {
    sample() {
      const cpu = process.cpuUsage()
      const memory = process.memoryUsage()
      // The monitor's figures are nanoseconds; NaN until it has measured once.
      const seconds = (ns: number) => (Number.isFinite(ns) ? ns / 1e9 : 0)
      const figures = [
        one(SHAPES.cpuUser, cpu.user / 1e6),
        one(SHAPES.cpuSystem, cpu.system / 1e6),
        one(SHAPES.cpu, (cpu.user + cpu.system) / 1e6),
        one(SHAPES.start, Math.round(start)),
        one(SHAPES.rss, memory.rss),
        one(SHAPES.heapUsed, memory.heapUsed),
        one(SHAPES.heapTotal, memory.heapTotal),
        one(SHAPES.external, memory.external),
        one(SHAPES.lag, seconds(delay.mean)),
        one(SHAPES.lagP99, seconds(delay.percentile(99))),
        one(SHAPES.lagMax, seconds(delay.max)),
      ]
      delay.reset()
      return figures
    },
    stop: () => delay.disable(),
  }
}
