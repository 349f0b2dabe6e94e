import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { parse } from 'csv-parse'
import { InputError, NotFoundError } from '../../errors.ts'
import type { Row, SourcedRow } from '../../core/types.ts'
import { delimitedName, delimiterOf, parseOptions } from './delimiter.ts'
import { formatOf } from './rows.ts'
import { utf8Text } from './text-decode.ts'

// The parsers behind readRows (src/adapters/files/rows.ts), loaded when the first data file is read.

/**
 * Opens a data file and gives its rows, one at a time: JSON Lines or delimited text by its
 * extension (src/adapters/files/rows.ts). A file that cannot be opened is a NotFoundError or an
 * InputError naming `label`; a delimited file's separator is `delimiter` when given, else its
 * extension's; a delimited file without a header line has its columns named by `columns`. The bytes are
 * UTF-8, or UTF-16 with a byte-order mark (src/adapters/files/text-decode.ts).
 */
export async function openRows(
  file: string,
  label: string,
  delimiter?: string | null,
  columns?: readonly string[] | null,
): Promise<AsyncIterable<SourcedRow>> {
  const stream = createReadStream(file)
  const opened = new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve())
    stream.once('error', reject)
  })
  try {
    await opened
  } catch (error) {
    throw fileError(error, label)
  }
  const text = stream.pipe(utf8Text(label))
  // pipe() forwards neither a read error nor a reader that stops early: each stream ends the other.
  stream.on('error', (error) => text.destroy(error))
  text.on('close', () => stream.destroy())
  return formatOf(file) === 'jsonl'
    ? jsonLines(text, label)
    : csvRows(text, label, delimiterOf(file, delimiter), columns ?? null)
}

/** The error of a data file that cannot be opened or read: not found, a folder, or unreadable. */
export function fileError(error: unknown, label: string): Error {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'ENOENT') return new NotFoundError(`${label}: no such data file`)
  if (code === 'EISDIR') return new InputError(`${label}: is a folder, not a data file`)
  return new InputError(`${label}: cannot read the data file (${code ?? String(error)})`, { cause: error })
}

/** The rows of a delimited file with a header (or without one, its columns named by `names`), each with its line. */
export function csvRows(
  stream: Readable,
  label: string,
  delimiter: string,
  names: readonly string[] | null = null,
): AsyncIterable<SourcedRow> {
  const parser = stream.pipe(
    parse({
      ...parseOptions(delimiter),
      columns: names === null ? true : [...names],
      bom: true,
      skip_empty_lines: true,
      // The parser gives each row with its line, so that reading a row takes no step of ours.
      on_record: (record: Row, { lines }: { lines: number }): SourcedRow => ({
        row: record,
        where: `${label}:${lines}`,
      }),
    }),
  )
  // pipe() does not forward a read error: without this the parser would wait forever.
  stream.on('error', (error) => parser.destroy(error))
  return translated(parser as AsyncIterable<SourcedRow>, (error) => {
    if (error instanceof InputError) return error
    const e = error as Error & { lines?: number; code?: string }
    if (e.code && !e.code.startsWith('CSV_')) return fileError(e, label)
    return new InputError(
      `${label}${e.lines ? `:${e.lines}` : ''}: not valid ${delimitedName(delimiter)}: ${e.message}`,
      {
        cause: error,
      },
    )
  })
}

/** The items of `source` with each error it throws translated: a step an item, where a generator takes more. */
function translated<T>(source: AsyncIterable<T>, translate: (error: unknown) => Error): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]() {
      const items = source[Symbol.asyncIterator]()
      const fail = (error: unknown): never => {
        throw translate(error)
      }
      return {
        next: () => items.next().then(undefined, fail),
        return: async (value?: unknown) => (await items.return?.(value)) ?? { done: true, value },
      }
    },
  }
}

/** The rows of a JSON Lines file, one object a line, blank lines skipped. */
export async function* jsonLines(stream: Readable, label: string): AsyncGenerator<SourcedRow> {
  const lines = createInterface({ input: stream, crlfDelay: Infinity })
  let n = 0
  try {
    for await (const line of lines) {
      n += 1
      if (line.trim() === '') continue
      yield { row: parseLine(line, `${label}:${n}`), where: `${label}:${n}` }
    }
  } catch (error) {
    if (error instanceof InputError) throw error
    throw fileError(error, label)
  }
}

function parseLine(line: string, where: string): Row {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    throw new InputError(`${where}: not valid JSON: ${(error as Error).message}`)
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(`${where}: a row must be a JSON object`)
  }
  return value as Row
}
