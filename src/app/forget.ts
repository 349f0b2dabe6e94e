import { relative } from 'node:path'
import { matchesState, pickRows, type ColumnMatch } from '../core/forget/line-pick.ts'
import { checkStateHash, rowStates } from '../core/forget/row-states.ts'
import { selectJudgments } from '../core/judge/select.ts'
import type { Project, Row, Spec } from '../core/types.ts'
import { UsageError } from '../errors.ts'
import type { App } from './app.ts'
import { reviewsTargets, runForgetJob, totalsOf, type JobResult } from './forget-job.ts'

/** The rows to forget, as `judge forget` and `POST /v1/forget` name them: at least one of each kind may be given. */
export interface ForgetInput {
  readonly project: Project
  /** Only this judgment of a folder: the states its columns make of a row. */
  readonly judgment?: string | null
  /** Rows, as the data holds them: each judgment whose state columns a row holds makes its state. */
  readonly rows?: readonly Row[]
  /** A data file of rows (CSV, TSV or JSON Lines, as `judge run` reads), named in messages by `label`. */
  readonly rowsFile?: { readonly file: string; readonly label: string }
  /** State hashes. */
  readonly states?: readonly string[]
  /** Every state holding exactly this value in this state column. */
  readonly matches?: readonly ColumnMatch[]
  /** False: a dry run, which says what would go and removes nothing. */
  readonly apply: boolean
  /** How it was asked for, for the forget log; never a value (`judge forget --row`). */
  readonly command: string
}

/** What `judge forget` and `POST /v1/forget` removed, or in a dry run would remove. */
export interface ForgetReport extends JobResult {
  readonly dry_run: boolean
  readonly removed: ReturnType<typeof totalsOf>
  /** Answer keys of the judgments that hold one of the rows: judge never edits them. */
  readonly key_files: readonly string[]
}

/**
 * Forgets rows: every copy judge keeps of their values (the store's states, the `state` cells of
 * every reviews file of the project), bytes and all, the rows kept for replay of them and their review holds. What
 * holds no values stays: answers, shadow pairs, runs, their label counts and row lists, verdicts,
 * all by hash, so that the figures stay and a forgotten row judged again is a cache hit. Reading
 * creates no store.
 */
export async function forgetRows(app: App, input: ForgetInput): Promise<ForgetReport> {
  const specs = selectJudgments(input.project, input.judgment, 'all')
  const matches = input.matches ?? []
  checkMatches(specs, matches)
  const store = app.existingStore(input.project)
  const rows = [...(input.rows ?? []), ...(input.rowsFile ? await rowsOf(app, input.rowsFile) : [])]
  const hashes = new Set([
    ...(input.states ?? []).map(checkStateHash),
    ...rows.flatMap((row) => rowStates(row, specs, input.project)),
    ...matches.flatMap((m) => store?.statesWhere(m.column, m.value) ?? []),
  ])
  if (hashes.size === 0 && matches.length === 0)
    throw new UsageError('name the rows to forget: a row, a file of rows, a state hash or a column value')
  const pick = pickRows(hashes, matches)
  const plan = { values: [...hashes], records: [...hashes] }
  const job = {
    project: input.project,
    plan,
    reviews: reviewsTargets(input.project.specs, pick),
    apply: input.apply,
    command: input.command,
  }
  const result = await runForgetJob(app, store, job)
  return {
    dry_run: !input.apply,
    ...result,
    removed: totalsOf(result.states),
    key_files: await keyFiles(app, input.project, specs, hashes, matches),
  }
}

async function rowsOf(app: App, { file, label }: { readonly file: string; readonly label: string }): Promise<Row[]> {
  const rows: Row[] = []
  for await (const { row } of app.files.rows(file, label)) rows.push(row)
  return rows
}

/** A matched column must be a state column of a selected judgment, or the match is a typo that would forget nothing. */
function checkMatches(specs: readonly Spec[], matches: readonly ColumnMatch[]): void {
  const columns = new Set(specs.flatMap((s) => s.state.map((c) => c.name)))
  const unknown = matches.find((m) => !columns.has(m.column))
  if (unknown)
    throw new UsageError(
      `${JSON.stringify(unknown.column)} is not a state column of ${specs.map((s) => s.name).join(', ')}; ` +
        `the state columns are ${[...columns].join(', ')}`,
    )
}

/**
 * The answer keys of the judgments that hold one of the rows, from the project's folder; a key that does not read is
 * passed over.
 */
async function keyFiles(
  app: App,
  project: Project,
  specs: readonly Spec[],
  hashes: ReadonlySet<string>,
  matches: readonly ColumnMatch[],
): Promise<string[]> {
  const files = new Set<string>()
  const read = new Set<string>()
  for (const spec of specs) {
    if (spec.key === null || read.has(spec.key)) continue
    read.add(spec.key)
    const key = await app.files.key(spec).catch(() => new Map())
    if ([...key.values()].some((row) => hashes.has(row.stateHash) || matchesState(row.state, matches)))
      files.add(spec.key)
  }
  return [...files].map((file) => relative(project.dir, file))
}
