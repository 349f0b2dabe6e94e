import { COMPARE_KIND, type ComparisonRecord } from '../../core/review/comparison-verdict.ts'
import { RETRACTED, type Retraction, type ReviewLine } from '../../core/review/retraction.ts'
import { isStratum } from '../../core/review/strata.ts'
import { isKind, isVerdict, type VerdictRecord } from '../../core/review/verdicts.ts'
import type { State } from '../../core/types.ts'
import { InputError } from '../../errors.ts'
import { delimitedLine } from './delimiter.ts'

/** The columns every reviews file has, in order (docs/review.md, The reviews file). */
export const BASE_COLUMNS = [
  'reviewed_at',
  'reviewer',
  'judgment',
  'question',
  'state_hash',
  'kind',
  'verdict',
  'labels',
  'model_label',
  'key_label',
  'state',
] as const

/**
 * The columns of a reviews file created now: the base ones, then the row's stratum and rank when reviewed, then the
 * reviewer's note.
 */
export const REVIEW_COLUMNS = [...BASE_COLUMNS, 'stratum', 'rank', 'note'] as const

/**
 * The shapes a reviews file has had, oldest first: a file keeps the shape of its header, and its new lines are written
 * in it (a file from before notes gets no note cell).
 */
export const FILE_SHAPES: readonly (readonly Column[])[] = [
  BASE_COLUMNS,
  [...BASE_COLUMNS, 'stratum', 'rank'],
  REVIEW_COLUMNS,
]

/** A column of a reviews file. */
export type Column = (typeof REVIEW_COLUMNS)[number]

/** The cells of one line, by column. */
export type Cells = Readonly<Record<Column, string>>

function cellsOf(record: VerdictRecord | ComparisonRecord): Record<Column, string> {
  return {
    reviewed_at: record.reviewed_at,
    reviewer: record.reviewer,
    judgment: record.judgment,
    question: record.question,
    state_hash: record.state_hash,
    kind: record.kind,
    verdict: record.verdict,
    labels: JSON.stringify(record.labels),
    model_label: record.model_label,
    key_label: record.key_label ?? '',
    state: JSON.stringify(record.state),
    stratum: record.stratum ?? '',
    rank: record.rank === null ? '' : String(record.rank),
    note: record.note ?? '',
  }
}

/**
 * One verdict as a line of the reviews file, newline included: CSV, or TSV for a .tsv file; `columns` the file's
 * (default REVIEW_COLUMNS).
 */
export function verdictLine(
  record: VerdictRecord | ComparisonRecord,
  delimiter = ',',
  columns: readonly Column[] = REVIEW_COLUMNS,
): string {
  const cells = cellsOf(record)
  return delimitedLine(
    columns.map((c) => cells[c]),
    delimiter,
  )
}

/**
 * A retraction as a line: the withdrawn verdict's line with the time and name of the undo, the
 * verdict `retracted` and no labels, so that a reader of the file sees what was withdrawn.
 */
export function retractionLine(
  retraction: Retraction,
  delimiter = ',',
  columns: readonly Column[] = REVIEW_COLUMNS,
): string {
  const cells = {
    ...cellsOf(retraction.withdrawn),
    reviewed_at: retraction.retracted_at,
    reviewer: retraction.reviewer,
    verdict: RETRACTED,
    labels: '[]',
  }
  return delimitedLine(
    columns.map((c) => cells[c]),
    delimiter,
  )
}

/** Reads one line's cells; `where` (file:line) and `format` name it in errors. */
export function lineOf(cells: Cells, where: string, format: string): ReviewLine {
  if (BASE_COLUMNS.some((c) => cells[c] === undefined))
    throw new InputError(`${where}: not valid ${format}: the line has fewer cells than the header`)
  if (cells.verdict === RETRACTED)
    return { type: 'retraction', judgment: cells.judgment, question: cells.question, state_hash: cells.state_hash }
  if (cells.kind === COMPARE_KIND) return { type: 'comparison', record: comparisonOf(cells, where) }
  return { type: 'verdict', record: recordOf(cells, where) }
}

function comparisonOf(cells: Cells, where: string): ComparisonRecord {
  if (cells.verdict !== 'labeled')
    throw new InputError(`${where}: a comparison verdict must be labeled, not "${cells.verdict}"`)
  const record = recordOf({ ...cells, kind: 'unsure' }, where)
  if (record.labels.length !== 1) throw new InputError(`${where}: a comparison verdict holds one label`)
  return { ...record, kind: COMPARE_KIND, verdict: 'labeled' }
}

function recordOf(cells: Cells, where: string): VerdictRecord {
  const { kind, verdict } = cells
  if (!isKind(kind)) throw new InputError(`${where}: unknown kind "${kind}"`)
  if (!isVerdict(verdict)) throw new InputError(`${where}: unknown verdict "${verdict}"`)
  const labels = json(cells.labels, where, 'labels')
  if (!Array.isArray(labels) || !labels.every((l) => typeof l === 'string'))
    throw new InputError(`${where}: labels must be a JSON array of labels`)
  const state = json(cells.state, where, 'state')
  if (
    typeof state !== 'object' ||
    state === null ||
    Array.isArray(state) ||
    !Object.values(state).every((v) => typeof v === 'string')
  ) {
    throw new InputError(`${where}: state must be a JSON object of column values`)
  }
  return {
    reviewed_at: cells.reviewed_at,
    reviewer: cells.reviewer,
    judgment: cells.judgment,
    question: cells.question,
    state_hash: cells.state_hash,
    kind,
    verdict,
    labels,
    model_label: cells.model_label,
    key_label: cells.key_label === '' ? null : cells.key_label,
    state: state as State,
    ...placeOf(cells, where),
    ...(cells.note ? { note: cells.note } : {}),
  }
}

/** Stratum and rank of a line: empty (or absent, in a file from before strata) is null. */
function placeOf(cells: Cells, where: string): Pick<VerdictRecord, 'stratum' | 'rank'> {
  const stratum = cells.stratum ?? ''
  const rank = cells.rank ?? ''
  if (stratum !== '' && !isStratum(stratum)) throw new InputError(`${where}: unknown stratum "${stratum}"`)
  if (rank !== '' && !/^[1-9]\d{0,15}$/.test(rank))
    throw new InputError(`${where}: rank must be a whole number from 1, not "${rank}"`)
  return { stratum: stratum === '' ? null : stratum, rank: rank === '' ? null : Number(rank) }
}

function json(text: string, where: string, column: Column): unknown {
  try {
    return JSON.parse(text)
  } catch {
    throw new InputError(`${where}: ${column} is not valid JSON`)
  }
}
