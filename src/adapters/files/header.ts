import { open } from 'node:fs/promises'
import { parse } from 'csv-parse/sync'
import { InputError, NotFoundError } from '../../errors.ts'
import { delimitedName, delimiterOf, parseOptions, TAB } from './delimiter.ts'
import { formatOf } from './rows.ts'
import { decodedHead } from './text-decode.ts'

/** The columns of a data file and how its cells are separated. */
export interface Header {
  readonly columns: readonly string[]
  /** The cell separator; null for JSON Lines. */
  readonly delimiter: string | null
  /** Whether the delimiter was read off the header line rather than the extension or a flag. */
  readonly sniffed: boolean
  /** The lines after the first (up to SAMPLE_LINES), split into cells: to tell a header from a row. */
  readonly sample: readonly (readonly string[])[]
}

// Lines read after the first, to tell a header line from a row.
const SAMPLE_LINES = 20

// A header longer than this is not one a person will edit a spec for.
const HEAD_BYTES = 64 * 1024

/**
 * Reads the header of a data file: the first line of a CSV or TSV file, or the keys of the first
 * row of a JSON Lines file. Without a given delimiter, a `.csv` (or other) file whose first line
 * holds tabs or semicolons and no comma is read with that separator.
 */
export async function readHeader(file: string, label: string, given?: string | null): Promise<Header> {
  const head = await readHead(file, label)
  const first = head.split(/\r?\n/).find((line) => line.trim() !== '') ?? ''
  if (formatOf(file) === 'jsonl')
    return { columns: jsonColumns(first, label), delimiter: null, sniffed: false, sample: [] }
  const byName = delimiterOf(file, given)
  const sniffed =
    given == null && byName === ',' && !first.includes(',') ? [TAB, ';'].find((d) => first.includes(d)) : undefined
  const delimiter = sniffed ?? byName
  // The sample is a guess's material: a line it cannot parse (or cut off at HEAD_BYTES) only shortens it.
  const records = lines(head, delimiter, SAMPLE_LINES + 1) ?? headerLine(head, delimiter, label)
  const columns = (records[0] ?? []).map((c) => c.trim())
  if (columns.length === 0 || columns.every((c) => c === ''))
    throw new InputError(`${label}: the file is empty; init needs a header line naming the columns`)
  return { columns, delimiter, sniffed: sniffed !== undefined, sample: records.slice(1) }
}

function lines(head: string, delimiter: string, count: number): string[][] | null {
  try {
    return parse(head, {
      ...parseOptions(delimiter),
      bom: true,
      to_line: count,
      relax_column_count: true,
      skip_empty_lines: true,
    })
  } catch {
    return null
  }
}

function headerLine(head: string, delimiter: string, label: string): string[][] {
  try {
    return parse(head, {
      ...parseOptions(delimiter),
      bom: true,
      to_line: 1,
      relax_column_count: true,
      skip_empty_lines: true,
    })
  } catch (error) {
    throw new InputError(`${label}:1: not a valid ${delimitedName(delimiter)} header: ${(error as Error).message}`, {
      cause: error,
    })
  }
}

async function readHead(file: string, label: string): Promise<string> {
  let handle
  let bytes: Buffer
  try {
    handle = await open(file, 'r')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new NotFoundError(`${label}: no such data file`)
    throw new InputError(`${label}: cannot read the data file (${code ?? String(error)})`, { cause: error })
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES)
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0)
    bytes = buffer.subarray(0, bytesRead)
  } catch (error) {
    throw new InputError(`${label}: is a folder or cannot be read, not a data file`, { cause: error })
  } finally {
    await handle.close()
  }
  return decodedHead(bytes, label, bytes.length < HEAD_BYTES)
}

function jsonColumns(line: string, label: string): string[] {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new InputError(`${label}:1: not valid JSON; init reads the columns off the first row`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new InputError(`${label}:1: a row must be a JSON object`)
  return Object.keys(value)
}
