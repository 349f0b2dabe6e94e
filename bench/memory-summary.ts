import { readFileSync } from 'node:fs'

// Reads what bench/memory-sampler.js wrote and prints, in MB: a sample every few seconds, the
// sample of the highest resident set, and the resident set at exit by kind of mapping.
// Usage: node bench/memory-summary.ts FILE [seconds between lines, default 10]

interface Sample {
  readonly t: number
  readonly rss: number
  readonly hwm: number
  readonly anon: number
  readonly file: number
  readonly heap: number
  readonly used: number
  readonly external: number
  readonly arrayBuffers: number
  readonly newSpace: number
  readonly oldSpace: number
  readonly codeSpace: number
  readonly largeObjects: number
  readonly trusted: number
}

const mb = (kb: number): string => (kb / 1024).toFixed(0).padStart(4)

function line(s: Sample): string {
  return (
    `${(s.t / 1000).toFixed(1).padStart(6)} s  rss ${mb(s.rss)}  hwm ${mb(s.hwm)}  anon ${mb(s.anon)}  file ${mb(s.file)}  ` +
    `v8 heap ${mb(s.heap)} (new ${mb(s.newSpace)}, old ${mb(s.oldSpace)}, code ${mb(s.codeSpace)}, trusted ${mb(s.trusted)}, large ${mb(s.largeObjects)}; used ${mb(s.used)})  ` +
    `external ${mb(s.external)} (array buffers ${mb(s.arrayBuffers)})`
  )
}

if (import.meta.main) {
  const [file, every = '10'] = process.argv.slice(2)
  const lines = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Sample | { smaps: Record<string, number> })
  const samples = lines.filter((l): l is Sample => 't' in l)
  const smaps = lines.find((l): l is { smaps: Record<string, number> } => 'smaps' in l)?.smaps
  let last = -Infinity
  for (const s of samples) {
    if (s.t - last < Number(every) * 1000) continue
    last = s.t
    process.stdout.write(line(s) + '\n')
  }
  const peak = samples.reduce((a, b) => (b.rss > a.rss ? b : a))
  process.stdout.write(`\nhighest resident set:\n${line(peak)}\nat exit:\n${line(samples[samples.length - 1])}\n`)
  if (smaps)
    process.stdout.write(
      `\nresident at exit by mapping (MB): ${Object.entries(smaps)
        .map(([k, v]) => `${k} ${(v / 1024).toFixed(1)}`)
        .join(', ')}\n`,
    )
}
