import type { ComparisonRecord, Comparisons } from '../core/review/comparison-verdict.ts'
import type { LinePick } from '../core/forget/line-pick.ts'
import type { Reviews } from '../core/review/double-review.ts'
import type { Retraction } from '../core/review/retraction.ts'
import type { AnswerKey, VerdictRecord, Verdicts } from '../core/review/verdicts.ts'
import type { SourcedRow, Spec } from '../core/types.ts'

/** The files a judgment names (data rows, answer key, reviews file) and its repository's commit. */
export interface Files {
  /**
   * Streams the rows of a data file; `label` names the file in error messages. A delimited file's
   * separator is `delimiter` when given, else its extension's (a tab for .tsv, else a comma); with
   * `columns`, the file has no header line and they name its cells.
   */
  rows(
    file: string,
    label: string,
    delimiter?: string | null,
    columns?: readonly string[] | null,
  ): AsyncIterable<SourcedRow>
  /** The judgment's answer key; empty when the spec names none. */
  key(spec: Spec): Promise<AnswerKey>
  /**
   * The standing verdict per row of the judgment's reviews file (retractions honoured); empty when there is none yet.
   */
  verdicts(spec: Spec): Promise<Verdicts>
  /**
   * Every standing verdict per row of the judgment's reviews file, in file order (retractions honoured): two or more
   * for a row reviewed twice.
   */
  reviews(spec: Spec): Promise<Reviews>
  /**
   * The latest comparison verdict per row of the judgment's reviews file (kind `compare`), which `verdicts` and
   * `reviews` leave out.
   */
  comparisons(spec: Spec): Promise<Comparisons>
  /** Appends one comparison verdict to the judgment's reviews file as one whole line. */
  appendComparison(spec: Spec, record: ComparisonRecord): Promise<void>
  /** Appends one verdict to the judgment's reviews file as one whole line. */
  appendVerdict(spec: Spec, record: VerdictRecord): Promise<void>
  /** Appends a retraction of a row's latest verdict to the judgment's reviews file as one whole line. */
  appendRetraction(spec: Spec, retraction: Retraction): Promise<void>
  /**
   * Empties the `state` cell (to `{}`) of the lines of the judgment's reviews file that `pick`
   * chooses, retractions included; with `apply`, rewrites the file whole and atomically, its other
   * lines byte for byte as they were. Returns the lines chosen per state hash. The caller holds the
   * file's lock (`FileLock`), as an append does, so that no verdict appended meanwhile is lost.
   */
  forgetReviewStates(spec: Spec, pick: LinePick, apply: boolean): Promise<Map<string, number>>
  /** The short commit of the repository holding `dir`, or "" outside one. */
  gitSha(dir: string): Promise<string>
  /** The first 16 hex digits of SHA-256 of a file's bytes; "" when it cannot be read. */
  contentHash(file: string): Promise<string>
}
