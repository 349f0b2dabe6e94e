import { judgeRows } from '../core/judge/judge-rows.ts'
import { createLedger } from '../core/judge/ledger.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { ReplayRow } from '../core/reports/replay.ts'
import type { SourcedRow, State } from '../core/types.ts'
import type { App } from './app.ts'
import { checkPlans, planRows } from './plan.ts'
import { labelsOf, pairOf, type Replayed, type ReplayInput } from './replay.ts'

/** What judgeData needs beyond replay's input: the data file and how to name it. */
export interface DataInput extends ReplayInput {
  readonly data: string
  readonly label: string
}

/**
 * `judge compare --data FILE`: judges the rows of a data file with the live and the candidate
 * spec, store first, each within the cap (refused before asking when a plan is above it), and
 * pairs their labels by the live judgment's state. No run is recorded: the answers asked are
 * stored, so a later `judge run` of the same file finds them.
 */
export async function judgeData(app: App, input: DataInput): Promise<Replayed> {
  const pair = pairOf(input)
  const rows: SourcedRow[] = []
  for await (const sourced of app.files.rows(input.data, input.label)) rows.push(sourced)
  const source = { kind: 'rows' as const, rows }
  const liveDeps = app.depsFor(input.live)
  const candidateDeps = app.depsFor(input.candidate)
  checkPlans(liveDeps, await planRows(app, input.live, [pair.live], source), input.cap)
  checkPlans(candidateDeps, await planRows(app, input.candidate, [pair.candidate], source), input.cap)
  const ledger = createLedger(input.cap)
  const live: { hash: string; state: State; labels: Record<string, string> }[] = []
  const candidate: Record<string, string>[] = []
  const onStart = input.onStart?.(rows.length * 2)
  const judgedLive = await judgeRows(
    { deps: liveDeps, ledger, signal: input.signal, patience: 'run' },
    withDependencies(input.live, [pair.live]),
    rows,
    {
      concurrency: input.concurrency,
      onRow(seq, sourced, results) {
        const result = results.get(pair.live.name)!
        live[seq] = { hash: result.stateHash, state: result.state, labels: labelsOf(result) }
        onStart?.(seq, sourced, results)
      },
    },
  )
  if (judgedLive.error) throw judgedLive.error
  const judgedCandidate = await judgeRows(
    { deps: candidateDeps, ledger, signal: input.signal, patience: 'run' },
    withDependencies(input.candidate, [pair.candidate]),
    rows,
    {
      concurrency: input.concurrency,
      onRow(seq, sourced, results) {
        candidate[seq] = labelsOf(results.get(pair.candidate.name)!)
        onStart?.(seq, sourced, results)
      },
    },
  )
  // A comparison on some of the rows would read as one on all of them: an error stops it.
  if (judgedCandidate.error) throw judgedCandidate.error
  // A state met on several rows is compared once, as the comparison counts states.
  const byHash = new Map<string, ReplayRow>()
  rows.forEach((_, i) => {
    if (live[i] && candidate[i] && !byHash.has(live[i].hash))
      byHash.set(live[i].hash, {
        stateHash: live[i].hash,
        state: live[i].state,
        live: live[i].labels,
        candidate: candidate[i],
      })
  })
  return { pair, kept: [], rows: [...byHash.values()], ledger, run: null }
}
