import { resolve } from 'node:path'
import { loadProject } from '../../adapters/files/spec-files.ts'
import { replayKept } from '../../app/replay.ts'
import { UsageError } from '../../errors.ts'
import { COMMON_DOCS, COMMON_OPTIONS, helpText, onePath, positiveInt } from '../args.ts'
import { defineCommand } from '../command.ts'
import { createProgress } from '../progress.ts'
import { replayText } from '../replay-text.ts'
import { runJson, withSession } from '../shared.ts'

/** The options `judge replay` parses; its help and docs/cli.md describe each. */
export const OPTIONS = { ...COMMON_OPTIONS, live: { type: 'string' }, concurrency: { type: 'string' } } as const

/** `judge replay`: tries a candidate spec on the rows kept for a live judgment. */
export const HELP = helpText(
  'judge replay <candidate> --live <spec-or-folder> [--node NAME] [--concurrency N] [--json]',
  'Judges the candidate spec on every row kept for the live judgment (requests sent with "log": true),\n' +
    'store first, so answers stored by shadow requests are not asked again. Reports per question how\n' +
    'often the labels agree, the confusion table, both label mixes and their distance, and the rows\n' +
    'that would change. Records a run of the candidate. Nothing is asked when the estimate is above\n' +
    'JUDGE_MAX_COST (default $1.00): the plan is printed and the exit status is 2. See docs/shadow.md.',
  [
    { flag: '--live PATH', text: 'the live spec file or folder whose kept rows are replayed (required)' },
    {
      flag: '--node NAME',
      text: 'the live judgment, for a folder of several; a candidate folder gives the one of the same name',
    },
    { flag: '--concurrency N', text: 'engine requests in flight at once (default 8)' },
    ...COMMON_DOCS.filter((d) => !d.flag.startsWith('--node')),
  ],
)

/** Runs `judge replay`; returns the exit status: 0 done, 1 a failed run, 2 refused before asking. */
export const replayCommand = defineCommand('replay', OPTIONS, HELP, async ({ values, positionals }, io, options) => {
  const candidatePath = onePath('replay', positionals)
  if (values.live === undefined)
    throw new UsageError('name the live spec or folder with --live PATH; see judge replay --help')
  const concurrency = positiveInt('concurrency', values.concurrency, 8)
  const live = loadProject(resolve(io.cwd, values.live))
  return withSession(io, candidatePath, options, async (session) => {
    let progress = createProgress(io.stderr, 0, 'replaying')
    const report = await replayKept(session.runtime, {
      candidate: session.project,
      live,
      judgment: values.node,
      cap: session.config.maxCost,
      concurrency,
      signal: io.signal,
      onStart(rows) {
        const bar = (progress = createProgress(io.stderr, rows, 'replaying'))
        return () => bar.tick()
      },
    }).finally(() => progress.end())
    io.stdout.write(
      values.json
        ? JSON.stringify({ ...report, run: report.run && runJson(report.run) }, null, 2) + '\n'
        : replayText(report),
    )
    return report.run !== null && report.run.status !== 'complete' ? 1 : 0
  })
})
