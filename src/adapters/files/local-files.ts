import type { SourcedRow } from '../../core/types.ts'
import type { Files } from '../../ports/files.ts'
import { lazy } from '../../lazy.ts'

// Each file format's code is loaded when first used (src/lazy.ts), so that a process judging rows
// (a server, the library's judge()) loads no reviews-file, key-file or git code (docs/architecture.md).
const keyFile = lazy<typeof import('./key-file.ts')>(import.meta.url, './key-file.ts')
const reviewsFile = lazy<typeof import('./reviews-file.ts')>(import.meta.url, './reviews-file.ts')
const reviewsForget = lazy<typeof import('./reviews-forget.ts')>(import.meta.url, './reviews-forget.ts')
const git = lazy<typeof import('./git.ts')>(import.meta.url, './git.ts')
const hashing = lazy<typeof import('./content-hash.ts')>(import.meta.url, './content-hash.ts')
const rowFormats = lazy<typeof import('./row-formats.ts')>(import.meta.url, './row-formats.ts')

/**
 * Streams the rows of a delimited file with a header (CSV; TSV for .tsv; `delimiter` when given;
 * without a header line when `columns` names them) or a JSON Lines file, one at a time, each with
 * its line; the parsers (csv-parse, node:readline) are loaded with the first file read, and the
 * file is opened at the first row asked for.
 */
export function readRows(
  file: string,
  label = file,
  delimiter?: string | null,
  columns?: readonly string[] | null,
): AsyncIterable<SourcedRow> {
  return {
    [Symbol.asyncIterator]() {
      let rows: AsyncIterator<SourcedRow> | null = null
      const open = async () =>
        (rows = (await rowFormats().openRows(file, label, delimiter, columns))[Symbol.asyncIterator]())
      return {
        // The parser's own steps once open, so that a row takes no step of this iterator's.
        next: () => (rows ? rows.next() : open().then((opened) => opened.next())),
        return: async (value?: unknown) => (await rows?.return?.(value)) ?? { done: true, value },
      }
    },
  }
}

/** The files port on the local file system: CSV, TSV and JSON Lines rows, CSV or TSV key and reviews files, git. */
export function createLocalFiles(): Files {
  return {
    rows: readRows,
    key: async (spec) => (spec.key === null ? new Map() : keyFile().readKey(spec, spec.key)),
    verdicts: async (spec) => reviewsFile().readVerdicts(spec.reviews),
    reviews: async (spec) => reviewsFile().readReviews(spec.reviews),
    comparisons: async (spec) => reviewsFile().readComparisons(spec.reviews),
    appendComparison: async (spec, record) => reviewsFile().appendComparison(spec.reviews, record),
    appendVerdict: async (spec, record) => reviewsFile().appendVerdict(spec.reviews, record),
    appendRetraction: async (spec, retraction) => reviewsFile().appendRetraction(spec.reviews, retraction),
    forgetReviewStates: async (spec, pick, apply) => reviewsForget().forgetReviewStates(spec.reviews, pick, apply),
    gitSha: async (dir) => git().gitShortSha(dir),
    contentHash: async (file) => hashing().contentHash(file),
  }
}
