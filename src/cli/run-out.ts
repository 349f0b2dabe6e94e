import { stat } from 'node:fs/promises'
import { dirname, isAbsolute, relative, resolve } from 'node:path'
import { answerColumns, openAnswersWriter, type AnswersWriter } from '../adapters/files/answers-out.ts'
import { formatOf } from '../adapters/files/rows.ts'
import { ownedFileAt, storeFiles, type OwnedFile } from '../adapters/files/write-target.ts'
import { rowsOf, type RowSource } from '../app/plan.ts'
import type { SpecResult } from '../core/judge/judge-row.ts'
import type { Row, Spec } from '../core/types.ts'
import { JudgeError, UsageError } from '../errors.ts'
import type { CliIo } from './io.ts'
import type { Session } from './shared.ts'

/** A data file's rows, as `judge run` reads them. */
type FileSource = Extract<RowSource, { kind: 'file' }>

// Where `judge run --out` may write, checked before anything is opened or asked (docs/cli.md, Files judge writes).

/** The answers file of a run (--out). */
export interface RunOut {
  /** Starts the file beside its target: once the plan is within the cap, so that a refused run writes nothing. */
  open(): void
  write(seq: number, row: Row, results: ReadonlyMap<string, SpecResult>): void
  /** Puts the file in place when every run is complete; else drops it, leaving the target as it was, and says so. */
  finish(complete: boolean): Promise<void>
}

/**
 * The answers file of `--out FILE [--out-prefix P]`, or null without one: refused, before anything is opened or
 * asked, when it is a file the run reads or owns or its answer columns would replace columns of the data.
 */
export async function prepareOut(
  io: CliIo,
  session: Session,
  flags: { readonly out?: string; readonly 'out-prefix'?: string },
  specs: readonly Spec[],
  source: FileSource,
): Promise<RunOut | null> {
  const given = flags.out
  if (given === undefined) {
    if (flags['out-prefix'] !== undefined)
      throw new UsageError('--out-prefix names the answer columns of --out: give --out FILE too')
    return null
  }
  const file = await outTarget(io, given, runFiles(io, session, source))
  const prefix = flags['out-prefix'] ?? ''
  await checkAnswerColumns(session, source, specs, prefix)
  let writer: AnswersWriter | null = null
  return {
    open: () => void (writer = openAnswersWriter(file, specs, prefix)),
    write: (seq, row, results) => writer?.write(seq, row, results),
    async finish(complete) {
      if (writer === null) return
      if (complete) return placed(given, writer)
      await writer.discard()
      io.stderr.write(
        `judge run: --out ${given} was not written, and a file of that name is as it was: ` +
          'it is written once every run is complete\n',
      )
    },
  }
}

/** Puts the answers file in place; one that cannot be (a full disk, a folder made there meanwhile) is said plainly. */
async function placed(given: string, writer: AnswersWriter): Promise<void> {
  try {
    await writer.close()
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException
    throw new JudgeError(
      `--out ${given} could not be written (${code}), and a file of that name is as it was; ` +
        'the answers are stored: run the same command again to write it',
      { cause: error },
    )
  }
}

/** The files a run reads or owns: its data file, every file the project's specs name, the store and its companions. */
function runFiles(io: CliIo, session: Session, source: FileSource): OwnedFile[] {
  const shown = (path: string) => shownPath(io, path)
  const named = (path: string | null, what: string) => (path === null ? [] : [{ path, what: `${what} ${shown(path)}` }])
  const store = session.runtime.storeFileFor(session.project.dir)
  return [
    { path: source.file, what: `the data file ${source.label}` },
    ...session.project.specs.flatMap((spec) => [
      ...named(spec.file, 'the spec file'),
      ...named(spec.key, 'the answer key'),
      ...named(spec.reviews, 'the reviews file'),
      ...named(spec.anchors, 'the anchors file'),
      ...named(spec.data, 'the data file'),
    ]),
    ...storeFiles(store, shown(store)),
  ]
}

/**
 * Refuses `--out FILE` when it is, through any symlink or hard link, a file the run reads or owns, or a folder, or
 * lies in no folder; returns its absolute path.
 */
async function outTarget(io: CliIo, given: string, owned: readonly OwnedFile[]): Promise<string> {
  const file = resolve(io.cwd, given)
  const found = await ownedFileAt(file, owned)
  if (found !== null) throw new UsageError(`--out ${given} is ${found.what}; write the answers to another file`)
  if ((await stat(file).catch(() => null))?.isDirectory())
    throw new UsageError(`--out ${given} is a folder; name a file to write the answers to`)
  if (!(await stat(dirname(file)).catch(() => null))?.isDirectory())
    throw new UsageError(`--out ${given}: there is no folder ${shownPath(io, dirname(file))} to write it in`)
  return file
}

/**
 * Refuses answer columns that would replace columns of the data, before anything is asked: the columns of a
 * delimited file's header (its first row), or of every row of a JSON Lines file, whose rows may each have others.
 */
async function checkAnswerColumns(
  session: Session,
  source: FileSource,
  specs: readonly Spec[],
  prefix: string,
): Promise<void> {
  const answers = new Set(answerColumns(specs, prefix))
  const clashes = new Set<string>()
  const everyRow = formatOf(source.file) === 'jsonl'
  for await (const { row } of rowsOf(session.runtime, source)) {
    for (const column of Object.keys(row)) if (answers.has(column)) clashes.add(column)
    if (!everyRow) break
  }
  if (clashes.size === 0) return
  const names = [...clashes].join(', ')
  const hint = prefix === '' ? 'answer_' : `${prefix}answer_`
  throw new UsageError(
    `${source.label} has ${clashes.size === 1 ? 'a column' : 'columns'} ${names} that --out would replace ` +
      `with the answers; name the answer columns apart with --out-prefix, e.g. --out-prefix ${hint}`,
  )
}

/** A path as the user would type it from the working folder. */
function shownPath(io: CliIo, path: string): string {
  const rel = relative(io.cwd, path)
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel
}
