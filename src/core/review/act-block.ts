import { percent } from '../../format.ts'
import type { ActRule, Comparison } from '../types.ts'
import type { RouteThresholds } from './thresholds.ts'

// Plain YAML scalars stay bare, as the docs write them; anything YAML might read otherwise is quoted.
const PLAIN = /^[A-Za-z_][A-Za-z0-9_.-]*$/
const RESERVED = /^(true|false|null|~|on|off|y|n)$/i

function scalar(text: string): string {
  return PLAIN.test(text) && !RESERVED.test(text) ? text : JSON.stringify(text)
}

function when(rule: ActRule, replaced: { variable: 'p' | 'margin'; comparison: Comparison } | null): string {
  const parts: string[] = []
  const { label, p, margin } = rule.when
  if (label) parts.push(`label: ${label.length === 1 ? scalar(label[0]) : `[${label.map(scalar).join(', ')}]`}`)
  for (const [name, c] of [
    ['p', p],
    ['margin', margin],
  ] as const) {
    const used = replaced?.variable === name ? replaced.comparison : c
    if (used) parts.push(`${name}: "${used.text}"`)
  }
  return `{${parts.join(', ')}}`
}

function comment(t: RouteThresholds): string {
  const s = t.suggested
  if (!s)
    return (
      `# no ${t.variable} threshold reaches ${percent(t.target)} precision at the lower end of its 95% ` +
      'interval: kept as it is'
    )
  return (
    `# precision ${percent(s.precision!)} (95% interval ${percent(s.interval![0])} ` +
    `to ${percent(s.interval![1])}), routes ${percent(s.share)} of answers`
  )
}

/**
 * The `act` block of a spec with each tunable rule's threshold replaced by the suggested one, as
 * YAML to paste over the spec's own; each tuned rule carries a comment with its figures.
 */
export function actBlock(
  act: Readonly<Record<string, readonly ActRule[]>>,
  thresholds: readonly RouteThresholds[],
): string {
  const lines = ['act:']
  for (const [question, rules] of Object.entries(act)) {
    lines.push(`  ${question}:`)
    rules.forEach((rule, i) => {
      const tuned = thresholds.find((t) => t.question === question && t.rule === i)
      const replaced = tuned?.suggested
        ? {
            variable: tuned.variable,
            comparison: {
              op: '>=' as const,
              value: tuned.suggested.threshold,
              text: `>= ${tuned.suggested.threshold}`,
            },
          }
        : null
      if (tuned) lines.push(`    ${comment(tuned)}`)
      lines.push(`    - route: ${scalar(rule.route)}`)
      if (Object.keys(rule.when).length > 0) lines.push(`      when: ${when(rule, replaced)}`)
    })
  }
  return lines.join('\n') + '\n'
}
