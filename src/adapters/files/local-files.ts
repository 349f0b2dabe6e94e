import type { SourcedRow } from '../../core/types.ts'
import type { Files } from '../../ports/files.ts'

/** A module imported on first call, then kept: the promise is shared by every later call. */
function onDemand<M>(load: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | null = null
  return () => (loading ??= load())
}

// Each file format's code is loaded when first used, so that a process judging rows (a server,
// the library's judge()) loads no reviews-file, key-file or git code (docs/architecture.md).
const keyFile = onDemand(() => import('./key-file.ts'))
const reviewsFile = onDemand(() => import('./reviews-file.ts'))
const reviewsForget = onDemand(() => import('./reviews-forget.ts'))
const git = onDemand(() => import('./git.ts'))
const hashing = onDemand(() => import('./content-hash.ts'))
const rowFormats = onDemand(() => import('./row-formats.ts'))

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
        (rows = (await (await rowFormats()).openRows(file, label, delimiter, columns))[Symbol.asyncIterator]())
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
    key: async (spec) => (spec.key === null ? new Map() : (await keyFile()).readKey(spec, spec.key)),
    verdicts: async (spec) => (await reviewsFile()).readVerdicts(spec.reviews),
    reviews: async (spec) => (await reviewsFile()).readReviews(spec.reviews),
    comparisons: async (spec) => (await reviewsFile()).readComparisons(spec.reviews),
    appendComparison: async (spec, record) => (await reviewsFile()).appendComparison(spec.reviews, record),
    appendVerdict: async (spec, record) => (await reviewsFile()).appendVerdict(spec.reviews, record),
    appendRetraction: async (spec, retraction) => (await reviewsFile()).appendRetraction(spec.reviews, retraction),
    forgetReviewStates: async (spec, pick, apply) =>
      (await reviewsForget()).forgetReviewStates(spec.reviews, pick, apply),
    gitSha: async (dir) => (await git()).gitShortSha(dir),
    contentHash: async (file) => (await hashing()).contentHash(file),
  }
}
