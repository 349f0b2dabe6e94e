import type { PublicRun } from '../app/runs.ts'
import { answeredFromText, sourcesText, TEXT_ONLY_WARNING } from '../core/tally/sources.ts'

/**
 * Where p came from, per question, in the newest run listed of each judgment, as `judge runs` prints it below its
 * table: `  spam is_spam: p from samples (372 answers)`, a question answered from text warned of; '' when no run listed
 * counted its sources.
 */
export function sourcesLines(runs: readonly PublicRun[]): string {
  const lines: string[] = []
  const seen = new Set<string>()
  for (const run of runs) {
    if (seen.has(run.judgment)) continue
    seen.add(run.judgment)
    for (const [question, counts] of Object.entries(run.sources ?? {})) {
      const text = sourcesText(counts)
      if (text === '') continue
      lines.push(`  ${run.judgment} ${question}: ${text}`)
      if (answeredFromText(counts)) lines.push(`    ${TEXT_ONLY_WARNING}`)
    }
  }
  if (lines.length === 0) return ''
  return `\nwhere p comes from, in the newest run of each judgment:\n${lines.join('\n')}\n`
}
