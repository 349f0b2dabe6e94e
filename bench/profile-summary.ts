import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import { ROOT } from './common.ts'

// Reads a V8 CPU profile (node --cpu-prof) and prints where the time went: the functions with the
// most self time, and the most inclusive time of the project's own functions.
// Usage: node bench/profile-summary.ts <file.cpuprofile> [top]

interface Node {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
  readonly children?: readonly number[]
  readonly hitCount?: number
}

interface Profile {
  readonly nodes: readonly Node[]
  readonly samples: readonly number[]
  readonly timeDeltas: readonly number[]
}

/** Self and inclusive time per function (name and place), in microseconds, with the total sampled. */
export function summarize(profile: Profile): {
  total: number
  self: Map<string, number>
  inclusive: Map<string, number>
  idle: number
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const time = new Map<number, number>()
  profile.samples.forEach((id, i) => time.set(id, (time.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)))
  const self = new Map<string, number>()
  const inclusive = new Map<string, number>()
  let total = 0
  let idle = 0
  for (const [id, us] of time) {
    const node = byId.get(id)!
    const name = nameOf(node)
    if (name.startsWith('(idle)')) idle += us
    else total += us
    self.set(name, (self.get(name) ?? 0) + us)
    const seen = new Set<string>()
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const n = nameOf(byId.get(at)!)
      if (seen.has(n)) continue
      seen.add(n)
      inclusive.set(n, (inclusive.get(n) ?? 0) + us)
    }
  }
  return { total, self, inclusive, idle }
}

function nameOf(node: Node): string {
  const { functionName, url, lineNumber } = node.callFrame
  const where = url.startsWith('file://') ? relative(ROOT, new URL(url).pathname) : url
  return `${functionName || '(anonymous)'} ${where ? `${where}:${lineNumber + 1}` : ''}`.trim()
}

if (import.meta.main) {
  const [file, top = '30'] = process.argv.slice(2)
  const { total, self, inclusive, idle } = summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile)
  const pct = (us: number) => `${((us / total) * 100).toFixed(1).padStart(5)}%`
  process.stdout.write(`busy ${(total / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s\n\nself time:\n`)
  for (const [name, us] of [...self]
    .filter(([n]) => !n.startsWith('(idle)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top)))
    process.stdout.write(`${pct(us)}  ${name}\n`)
  process.stdout.write('\ninclusive time, src/ only:\n')
  for (const [name, us] of [...inclusive]
    .filter(([n]) => n.includes(' src/'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(top)))
    process.stdout.write(`${pct(us)}  ${name}\n`)
}
