import { readFileSync, writeSync } from 'node:fs'

// Preloaded (node --import) into the process bench/run-memory.ts measures: at exit it writes the
// process's peak resident set size as getrusage counts it (maxRSS) and as /proc/self/status does
// (VmHWM, the high-water mark of this program's own memory since it started), and the CPU time it
// used (steadier than wall time on a shared machine), on standard error. JavaScript, not
// TypeScript: a TypeScript preload would load Node's type stripper into the measured process,
// which the built package (--dist) never loads.
process.on('exit', () => {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0'
  const usage = process.resourceUsage()
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000)
  writeSync(2, `\npeak-rss-kb ${usage.maxRSS} vmhwm-kb ${hwm} cpu-ms ${cpuMs}\n`)
})
