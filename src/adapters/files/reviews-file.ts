import { open, readFile, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import {
  comparisonsOf,
  standingReviews,
  standingVerdicts,
  type Retraction,
  type ReviewLine,
} from '../../core/review/retraction.ts'
import type { ComparisonRecord, Comparisons } from '../../core/review/comparison-verdict.ts'
import type { VerdictRecord, Verdicts } from '../../core/review/verdicts.ts'
import { InputError } from '../../errors.ts'
import { delimitedLine, delimitedName, delimiterOf, parseOptions } from './delimiter.ts'
import { parsedTexts } from './parsed-texts.ts'
import { createFile } from './safe-write.ts'
import { fileWriteError, writeWhole } from './write-trouble.ts'
import {
  BASE_COLUMNS,
  FILE_SHAPES,
  lineOf,
  retractionLine,
  REVIEW_COLUMNS,
  verdictLine,
  type Cells,
  type Column,
} from './reviews-lines.ts'

// The line format lives in reviews-lines.ts; callers that write or read the file find it here too.
export { BASE_COLUMNS, REVIEW_COLUMNS, retractionLine, verdictLine } from './reviews-lines.ts'

// Letters and digits of any script; the first character may not be one a spreadsheet reads as the
// start of a formula (=, +, -, @), and none of the characters can break out of a CSV cell or HTML.
const REVIEWER = /^[\p{L}\p{N}][\p{L}\p{N} ._@-]{0,63}$/u

/**
 * Whether a reviewer name is acceptable: 1 to 64 letters, digits, spaces and `._@-`, starting with a letter or digit.
 */
export function validReviewer(name: string): boolean {
  return REVIEWER.test(name)
}

/**
 * Appends one verdict to a reviews file as one whole line, fsync'd before the promise resolves,
 * creating the file with its header first. Safe without a lock, within a process and across
 * processes: see appendLine. (The check that a verdict is offered is serialized by its use case.)
 */
export function appendVerdict(file: string, record: VerdictRecord): Promise<void> {
  const path = resolve(file)
  return appendLine(path, delimiterOf(path), (delimiter, columns) => verdictLine(record, delimiter, columns))
}

/**
 * Appends a retraction of a row's latest verdict (an undo) as one whole line, as appendVerdict
 * does: the file is only ever appended to, so what was withdrawn stays on record.
 */
export function appendRetraction(file: string, retraction: Retraction): Promise<void> {
  const path = resolve(file)
  return appendLine(path, delimiterOf(path), (delimiter, columns) => retractionLine(retraction, delimiter, columns))
}

/**
 * Appends a line with one write(2) on a descriptor opened with O_APPEND: the kernel moves to the
 * end and writes in one step, so lines from other processes land whole, one after another. POSIX
 * promises this only up to PIPE_BUF (4096 bytes on Linux); local Linux and macOS file systems
 * keep longer appends whole too, while NFS keeps none (see docs/review.md).
 */
async function appendLine(
  path: string,
  delimiter: string,
  lineFor: (delimiter: string, columns: readonly Column[]) => string,
): Promise<void> {
  const header = delimitedLine(REVIEW_COLUMNS, delimiter)
  try {
    await createWithHeader(path, header)
    const handle = await open(path, 'a')
    try {
      // A file created empty by someone else gets its header in the same write as the first line.
      const { size } = await handle.stat()
      // A file created before strata or notes keeps its header and its shape: its lines leave those cells out.
      const line = lineFor(delimiter, size > 0 ? await shapeOf(path, delimiter) : REVIEW_COLUMNS)
      await writeWhole(handle, Buffer.from(size === 0 ? header + line : line), size)
    } finally {
      await handle.close()
    }
  } catch (error) {
    throw fileWriteError(path, error)
  }
}

/** The columns of a file's header among FILE_SHAPES; REVIEW_COLUMNS for any other header. */
async function shapeOf(path: string, delimiter: string): Promise<readonly Column[]> {
  for (const shape of FILE_SHAPES) if (await startsWith(path, delimitedLine(shape, delimiter))) return shape
  return REVIEW_COLUMNS
}

/** Whether a file begins with this text (a header, its newline included). */
async function startsWith(path: string, text: string): Promise<boolean> {
  const handle = await open(path, 'r')
  try {
    const buffer = Buffer.alloc(Buffer.byteLength(text))
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
    return buffer.subarray(0, bytesRead).toString('utf8') === text
  } finally {
    await handle.close()
  }
}

/** Creates a missing reviews file holding only its header, so that no process ever sees it without one. */
async function createWithHeader(path: string, header: string): Promise<void> {
  try {
    await stat(path)
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  // Written aside and linked into place, never over a file: when another process made it first, its file stays.
  await createFile(path, header)
}

/**
 * Reads a reviews file and returns the verdict that counts for each row (judgment, question, state
 * hash): of the verdict lines not withdrawn by a retraction line after them, each reviewer's last,
 * and between reviewers the first unless a third settles a difference (standingVerdicts). A
 * missing file holds no verdicts; a malformed line is an InputError naming file:line.
 */
export async function readVerdicts(file: string): Promise<Verdicts> {
  return standingVerdicts(await readLines(file))
}

/** Reads a reviews file and returns the latest comparison verdict of each row (comparisonsOf). */
export async function readComparisons(file: string): Promise<Comparisons> {
  return comparisonsOf(await readLines(file))
}

/** Appends one comparison verdict as one whole line, as appendVerdict does. */
export function appendComparison(file: string, record: ComparisonRecord): Promise<void> {
  const path = resolve(file)
  return appendLine(path, delimiterOf(path), (delimiter, columns) => verdictLine(record, delimiter, columns))
}

/** Reads a reviews file and returns every standing verdict of each row, in file order (standingReviews). */
export async function readReviews(file: string): Promise<Map<string, VerdictRecord[]>> {
  return standingReviews(await readLines(file))
}

async function readLines(file: string): Promise<ReviewLine[]> {
  return parsedReviews.get(resolve(file), await readText(file), (text) => linesOf(text, file))
}

/** Reviews files parsed lately, by path (a server reads them on every page request). */
const parsedReviews = parsedTexts<ReviewLine[]>(16)

/**
 * Lets go of what was parsed from a reviews file: after rows were forgotten in it, no copy of their values stays in
 * memory.
 */
export function dropParsedReviews(file: string): void {
  parsedReviews.drop(resolve(file))
}

/** Whether what was parsed from a reviews file is held in memory. */
export function holdsParsedReviews(file: string): boolean {
  return parsedReviews.holds(resolve(file))
}

function linesOf(text: string, file: string): ReviewLine[] {
  try {
    return linesOfText(text, file)
  } catch (error) {
    // A last line without its newline that does not read is being appended, or was cut short by a
    // full disk and is about to be taken back (writeWhole): the lines before it are read.
    const end = text.lastIndexOf('\n') + 1
    if (end === 0 || end === text.length) throw error
    return linesOfText(text.slice(0, end), file)
  }
}

function linesOfText(text: string, file: string): ReviewLine[] {
  const lines: ReviewLine[] = []
  for (const { record, info } of parseFile(text, file)) {
    // Two processes writing the first verdict into one empty file at once can both add a header.
    if (record.reviewed_at === 'reviewed_at') continue
    lines.push(lineOf(record, `${file}:${info.lines}`, delimitedName(delimiterOf(file))))
  }
  return lines
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return ''
    throw new InputError(`${file}: cannot read the reviews file (${code ?? String(error)})`, { cause: error })
  }
}

function parseFile(text: string, file: string): { record: Cells; info: { lines: number } }[] {
  const delimiter = delimiterOf(file)
  const columns = (header: string[]) => {
    const missing = BASE_COLUMNS.filter((c) => !header.includes(c))
    if (missing.length > 0) throw new InputError(`${file}: not a reviews file: the header lacks ${missing.join(', ')}`)
    return header
  }
  try {
    // A header that gains stratum and rank by hand still reads the shorter lines written before.
    return parse(text, {
      ...parseOptions(delimiter),
      columns,
      bom: true,
      skip_empty_lines: true,
      info: true,
      relax_column_count_less: true,
    })
  } catch (error) {
    if (error instanceof InputError) throw error
    const e = error as Error & { lines?: number }
    throw new InputError(
      `${file}${e.lines ? `:${e.lines}` : ''}: not valid ${delimitedName(delimiter)}: ${e.message}`,
      { cause: error },
    )
  }
}
