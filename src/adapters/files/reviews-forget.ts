import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { FORGOTTEN_STATE, type LinePick } from '../../core/forget/line-pick.ts'
import type { State } from '../../core/types.ts'
import { InputError } from '../../errors.ts'
import { delimitedLine, delimitedName, delimiterOf, parseOptions } from './delimiter.ts'
import { dropParsedReviews } from './reviews-file.ts'
import { BASE_COLUMNS, lineOf, type Cells } from './reviews-lines.ts'
import { replaceFile } from './safe-write.ts'

/** One record of the file as read: its cells, and where it ends in the bytes (its line end included). */
interface ParsedRecord {
  readonly record: string[]
  readonly info: { readonly lines: number; readonly bytes: number }
}

const BOM = Buffer.from('\ufeff')

/**
 * Empties the `state` cell (to `{}`) of the lines of a reviews file that `pick` chooses and, with
 * `apply`, writes the file anew: a new file in the same folder, fsync'd, renamed over the old one
 * (and the folder fsync'd), so that a reader sees the old file or the new one, never a part. Every
 * other byte (header, other lines, empty lines, line ends, a byte-order mark) stays as it was; a
 * changed line keeps its cells, quoted as the file's writer quotes them. A malformed line is the
 * InputError reading it would be, and nothing is written. Returns the lines chosen per state hash;
 * a missing file has none. The caller holds the file's lock, so that no append is lost meanwhile.
 */
export async function forgetReviewStates(file: string, pick: LinePick, apply: boolean): Promise<Map<string, number>> {
  const path = resolve(file)
  const bytes = await readBytes(path)
  const skip = bytes.subarray(0, BOM.length).equals(BOM) ? BOM.length : 0
  const body = bytes.subarray(skip)
  const records = parseRecords(body, path)
  const header = records[0]?.record ?? []
  const missing = BASE_COLUMNS.filter((c) => records.length > 0 && !header.includes(c))
  if (missing.length > 0) throw new InputError(`${file}: not a reviews file: the header lacks ${missing.join(', ')}`)
  const counts = new Map<string, number>()
  const parts: Buffer[] = [bytes.subarray(0, skip)]
  let from = 0
  for (const [i, r] of records.entries()) {
    const span = body.subarray(from, r.info.bytes)
    from = r.info.bytes
    const hash = i === 0 || r.record[0] === 'reviewed_at' ? null : chosen(r, header, path, pick)
    if (hash === null) {
      parts.push(span)
      continue
    }
    counts.set(hash, (counts.get(hash) ?? 0) + 1)
    parts.push(Buffer.from(rewritten(r.record, header.indexOf('state'), span.toString('utf8'), delimiterOf(path))))
  }
  parts.push(body.subarray(from))
  if (apply && counts.size > 0) {
    await replaceFile(path, Buffer.concat(parts))
    dropParsedReviews(path)
  }
  return counts
}

async function readBytes(path: string): Promise<Buffer> {
  try {
    return await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return Buffer.alloc(0)
    throw new InputError(
      `${path}: cannot read the reviews file (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      { cause: error },
    )
  }
}

function parseRecords(body: Buffer, file: string): ParsedRecord[] {
  const delimiter = delimiterOf(file)
  try {
    return parse(body, {
      ...parseOptions(delimiter),
      info: true,
      skip_empty_lines: true,
      relax_column_count_less: true,
    }) as unknown as ParsedRecord[]
  } catch (error) {
    const e = error as Error & { lines?: number }
    throw new InputError(
      `${file}${e.lines ? `:${e.lines}` : ''}: not valid ${delimitedName(delimiter)}: ${e.message}`,
      { cause: error },
    )
  }
}

/** The line's state hash when `pick` chooses it, else null; a line the reader would refuse is refused here. */
function chosen(r: ParsedRecord, header: readonly string[], file: string, pick: LinePick): string | null {
  const cells = Object.fromEntries(header.map((column, i) => [column, r.record[i]])) as unknown as Cells
  lineOf(cells, `${file}:${r.info.lines}`, delimitedName(delimiterOf(file)))
  return pick({
    judgment: cells.judgment,
    state_hash: cells.state_hash,
    state: stateOf(cells.state),
    reviewed_at: cells.reviewed_at,
  })
    ? cells.state_hash
    : null
}

// A retraction line's state is read by no one, so it is not checked: text that is not a state still goes with its row.
function stateOf(text: string): State {
  if (text === '') return {}
  try {
    const value = JSON.parse(text) as unknown
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as State
  } catch {
    // Kept whole below, as a state of one unnamed column.
  }
  return { '': text }
}

/**
 * The record with its state cell emptied, written as the file's writer writes a line, keeping the blank lines before it
 * (in `span`) and its line end.
 */
function rewritten(record: readonly string[], stateAt: number, span: string, delimiter: string): string {
  const cells = record.map((cell, i) => (i === stateAt ? FORGOTTEN_STATE : cell))
  const before = /^(?:\r?\n)*/.exec(span)![0]
  const end = /\r?\n$/.exec(span)?.[0] ?? ''
  return before + delimitedLine(cells, delimiter).replace(/\n$/, end)
}
