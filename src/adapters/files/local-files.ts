import type { Files } from '../../ports/files.ts'
import { contentHash } from './content-hash.ts'
import { gitShortSha } from './git.ts'
import { readKey } from './key-file.ts'
import { appendComparison, appendRetraction, appendVerdict, readComparisons, readReviews, readVerdicts } from './reviews-file.ts'
import { forgetReviewStates } from './reviews-forget.ts'
import { readRows } from './rows.ts'

/** The files port on the local file system: CSV, TSV and JSON Lines rows, CSV or TSV key and reviews files, git. */
export function createLocalFiles(): Files {
  return {
    rows: readRows,
    key: async (spec) => (spec.key === null ? new Map() : readKey(spec, spec.key)),
    verdicts: (spec) => readVerdicts(spec.reviews),
    reviews: (spec) => readReviews(spec.reviews),
    comparisons: (spec) => readComparisons(spec.reviews),
    appendComparison: (spec, record) => appendComparison(spec.reviews, record),
    appendVerdict: (spec, record) => appendVerdict(spec.reviews, record),
    appendRetraction: (spec, retraction) => appendRetraction(spec.reviews, retraction),
    forgetReviewStates: (spec, pick, apply) => forgetReviewStates(spec.reviews, pick, apply),
    gitSha: gitShortSha,
    contentHash,
  }
}
