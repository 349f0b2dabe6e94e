import { resolve } from 'node:path'
import { loadProject } from '../../adapters/files/spec-files.ts'
import { compareFile, compareKept } from '../../app/compare.ts'
import { DEFAULT_MARGIN } from '../../core/compare/compare.ts'
import {
  gatedQuestions,
  gateFailures,
  REQUIREMENTS,
  SCOPES,
  type Requirement,
  type Scope,
} from '../../core/compare/gate.ts'
import { UsageError } from '../../errors.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, positiveInt } from '../args.ts'
import { defineCommand } from '../command.ts'
import { compareText, gateText } from '../compare-text.ts'
import { createProgress } from '../progress.ts'
import { runJson, withSession } from '../shared.ts'

/** The options `judge compare` parses; its help and docs/cli.md describe each. */
export const OPTIONS = {
  ...COMMON_OPTIONS,
  data: { type: 'string' },
  require: { type: 'string' },
  scope: { type: 'string' },
  margin: { type: 'string' },
  concurrency: { type: 'string' },
} as const

/** `judge compare`: is the candidate more accurate than the live spec, and how sure are we. */
export const HELP = helpText(
  'judge compare <live> <candidate> [--data FILE] [--node NAME] [--require not-worse|better] [--scope ' +
    'traffic|rows] [--margin M] [--json]',
  'Replays the candidate on the rows kept for the live judgment (store first, within JUDGE_MAX_COST,\n' +
    'as judge replay does, recording a replay run) and compares the two per question: the share of\n' +
    'rows they label differently, the accuracy difference (candidate minus live) with a 95% interval\n' +
    'from the reviewed rows where they differ (/review?compare=...), and a verdict: better, worse, no\n' +
    'difference shown, or not enough evidence with the reviews that would settle it. With --data, both\n' +
    'specs are judged on the rows of a data file instead (store first, within the cap; no run recorded).\n' +
    'A question both ask alike (same wording, labels, model, state and store) is unchanged: the same\n' +
    'answers by construction. With --require the exit status gates the changed questions: 0 when every\n' +
    'one meets it (or none changed), 1 when one does not, 2 on error.\n' +
    'The gate decides about the traffic the compared rows sample; --scope rows decides about the\n' +
    'compared rows themselves where every row they differ on has a known label.\n' +
    'See docs/shadow.md.',
  [
    { flag: '--data FILE', text: 'compare on the rows of this CSV, TSV or JSON Lines file instead of the kept rows' },
    {
      flag: '--require R',
      text: "not-worse (the interval's lower end above -margin) or better (above 0, p < 0.05), per changed question",
    },
    {
      flag: '--scope S',
      text: 'traffic (default: the traffic the compared rows sample) or rows (the rows themselves)',
    },
    { flag: '--margin M', text: 'the accuracy a candidate may lose and still be not worse, default 0.01' },
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    ...COMMON_DOCS,
  ],
)

/**
 * Runs `judge compare`; returns the exit status: 0 done (and the gate met), 1 the gate not met or a failed run, 2
 * refused.
 */
export const compareCommand = defineCommand('compare', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  if (positionals.length !== 2)
    throw new UsageError(
      'judge compare takes two paths: the live spec or folder, then the candidate; see judge compare --help',
    )
  const require = requirement(values.require)
  const scope = scopeOf(values.scope)
  const margin = marginOf(values.margin)
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  const live = loadProject(resolve(io.cwd, positionals[0]))
  return withSession(io, positionals[1], options, async (session) => {
    let progress = createProgress(io.stderr, 0, 'replaying')
    const input = {
      candidate: session.project,
      live,
      judgment: values.node,
      cap: session.config.maxCost,
      concurrency,
      signal: io.signal,
      margin,
      onStart(rows: number) {
        const bar = (progress = createProgress(io.stderr, rows, values.data === undefined ? 'replaying' : 'judging'))
        return () => bar.tick()
      },
    }
    const report = await (values.data === undefined
      ? compareKept(session.runtime, input)
      : compareFile(session.runtime, { ...input, data: resolve(io.cwd, values.data), label: values.data })
    ).finally(() => progress.end())
    const failures = require ? gateFailures(report.questions, require, margin, scope) : []
    const judged = gatedQuestions(report.questions)
    io.stdout.write(
      values.json
        ? JSON.stringify(
            {
              ...report,
              run: report.run && runJson(report.run),
              gate: require ? { require, scope, margin, judged, met: failures.length === 0, failures } : null,
            },
            null,
            2,
          ) + '\n'
        : compareText(report),
    )
    if (require && !values.json) io.stdout.write(gateText({ require, scope, margin }, judged, failures))
    if (report.run !== null && report.run.status !== 'complete') return 1
    return failures.length === 0 ? 0 : 1
  })
})

function requirement(value: string | undefined): Requirement | null {
  if (value === undefined) return null
  if ((REQUIREMENTS as readonly string[]).includes(value)) return value as Requirement
  throw new UsageError(`--require takes ${REQUIREMENTS.join(' or ')}, not "${value}"`)
}

function scopeOf(value: string | undefined): Scope {
  if (value === undefined) return 'traffic'
  if ((SCOPES as readonly string[]).includes(value)) return value as Scope
  throw new UsageError(`--scope takes ${SCOPES.join(' or ')}, not "${value}"`)
}

function marginOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_MARGIN
  const m = Number(value)
  if (!Number.isFinite(m) || m < 0 || m >= 1 || value.trim() === '')
    throw new UsageError(`--margin takes a share from 0 to below 1 (0.01 is one point of accuracy), not "${value}"`)
  return m
}
