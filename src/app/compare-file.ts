import { judgeRows } from '../core/judge/judge-rows.ts'
import { createLedger } from '../core/judge/ledger.ts'
import { withDependencies } from '../core/judge/select.ts'
import type { ReplayRow } from '../core/reports/replay.ts'
import type { SpecResult } from '../core/judge/judge-row.ts'
import type { JudgeDeps } from '../core/judge/deps.ts'
import type { Project, SourcedRow, Spec, State } from '../core/types.ts'
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
  // Each side's rows judged with its judgment's result kept by row: live first, then the candidate.
  // A comparison on some of the rows would read as one on all of them: an error stops it.
  const judgeSide = async (
    deps: JudgeDeps,
    project: Project,
    judgment: Spec,
    keep: (seq: number, r: SpecResult) => void,
  ) => {
    const judged = await judgeRows(
      { deps, ledger, signal: input.signal, patience: 'run' },
      withDependencies(project, [judgment]),
      rows,
      {
        concurrency: input.concurrency,
        onRow(seq, sourced, results) {
          keep(seq, results.get(judgment.name)!)
          onStart?.(seq, sourced, results)
        },
      },
    )
    if (judged.error) throw judged.error
  }
  await judgeSide(liveDeps, input.live, pair.live, (seq, result) => {
    live[seq] = { hash: result.stateHash, state: result.state, labels: labelsOf(result) }
  })
  await judgeSide(candidateDeps, input.candidate, pair.candidate, (seq, result) => {
    candidate[seq] = labelsOf(result)
  })
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
