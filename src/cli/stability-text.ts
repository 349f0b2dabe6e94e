import type { NoiseFinding } from '../app/noise-check.ts'
import type { JudgmentStability } from '../app/stability.ts'
import type { Estimate, NearThreshold, QuestionStability } from '../core/stability/figures.ts'
import { listedStrata } from '../core/review/strata.ts'
import { decimals, percent, plural, withInterval } from '../format.ts'
import { costText } from './text.ts'

const share = (e: Estimate | null) =>
  e === null ? 'not estimable' : withInterval(e.point, e.interval, percent, '95% ')
const amount = (e: Estimate | null) =>
  e === null ? 'not estimable' : withInterval(e.point, e.interval, decimals(3), '95% ')

/** `judge stability --json`: per judgment what it asked, and each question's figures. */
export function stabilityJson(results: readonly JudgmentStability[]) {
  return Object.fromEntries(
    results.map((r) => [
      r.judgment,
      {
        model: r.model,
        checked_at: r.check,
        states: r.states,
        skipped: r.skipped,
        from_samples: r.fromSamples,
        requests: r.requests,
        cost: r.cost,
        questions: r.questions,
      },
    ]),
  )
}

/** The human report of `judge stability`: per judgment what it asked, then a line or two per question. */
export function stabilityReport(results: readonly JudgmentStability[]): string {
  const lines: string[] = []
  for (const r of results) {
    const skipped =
      r.skipped === 0 ? '' : `; ${plural(r.skipped, 'state')} drawn had no values left in the store and were not asked`
    const read =
      r.fromSamples === 0
        ? ''
        : `; ${plural(r.fromSamples, 'answer')} of sampled p read from their samples, not asked (1 - p is the chance ` +
          'a fresh draw names another label)'
    lines.push(
      `${r.judgment}: ${plural(r.states, 'state')} asked again in ${plural(r.requests, 'request')}, ` +
        `${costText(r.cost, r.model)}, model ${r.model}${skipped}${read}`,
    )
    for (const [question, s] of Object.entries(r.questions)) lines.push(...questionLines(question, s))
  }
  return lines.join('\n') + '\n'
}

/** A question's figures as text: its flip rate and jitter, its route flips, the answers near a threshold. */
export function questionLines(question: string, s: QuestionStability | null): string[] {
  if (s === null) return [`  ${question}: no stored answers to ask again`]
  const drawn = listedStrata(s.strata).map(stratumText).join(', ')
  const lines = [`  ${question}: flip rate ${share(s.flip_rate)}; p jitter ${amount(s.p_jitter)}; ${drawn}`]
  if (s.route_flip_rate !== null) lines.push(`    route flips ${share(s.route_flip_rate)}`)
  if (s.near_threshold !== null) lines.push(`    ${nearLine(s.near_threshold)}`)
  return lines
}

/** A stratum's re-asks: `3 of 100 unsure flipped`, with those read from their draws said apart. */
function stratumText(h: QuestionStability['strata'][number]): string {
  if (h.from_samples === 0) return `${h.flips} of ${h.reasked} ${h.stratum} flipped`
  const asked = h.reasked - h.from_samples
  return `${h.flips} of ${asked} ${h.stratum} asked again flipped, ${h.from_samples} read from their samples`
}

/**
 * The stored answers near a p threshold, said as what it is: a possibility measured against the mean p jitter, which
 * the answers asked again may not show; with no jitter, that the noise moved no p and so no route.
 */
function nearLine(near: NearThreshold): string {
  const thresholds = `a p threshold (${near.thresholds.join(', ')})`
  if (near.within === 0)
    return `no p moved when asked again, so the noise carries no stored answer across ${thresholds}`
  return (
    `${near.count} of ${plural(near.answers, 'stored answer')} (${percent(near.share)}) have p within ` +
    `${near.within.toFixed(3)}, the mean p jitter, of ${thresholds}: noise of that size could move their route`
  )
}

/** The lines a run's summary adds for questions whose noise is the larger part of their error; '' when none. */
export function noiseLines(findings: readonly NoiseFinding[]): string {
  return findings
    .map(
      (f) =>
        `${f.judgment}.${f.question}: labels flip on ${share(f.flip_rate)} of answers asked again (judge ` +
        `stability, ${f.checked_at}), ` +
        `above the error rate's interval (${percent(f.error.interval[0])} ` +
        `to ${percent(f.error.interval[1])}): the engine's noise is the larger part of the error\n`,
    )
    .join('')
}
