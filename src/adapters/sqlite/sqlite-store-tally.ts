import { gridKey, keyValue, onGrid } from '../../core/tally/grid.ts'
import { sourceCounts } from '../../core/tally/sources.ts'
import type { ProbabilitySource } from '../../core/types.ts'
import type { AnswerCell, MarginBand } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'
import type { Statements } from './sqlite-statements.ts'

/** The methods of the port that count answers by label, p and margin: the review queue's and the reports' reads. */
export type TallyMethods = Pick<Store, 'countAnswers' | 'answerCells' | 'modelAnswerCounts' | 'countSources'>

/** The tally methods of a SQLite store, over its prepared statements. */
export function tallyMethods(sql: Statements): TallyMethods {
  return {
    countAnswers(model, fingerprint, band) {
      // The tally counts a band whose ends are hundredths; any other takes the margin index.
      const keys = tallyKeys(band)
      const split = band?.split === undefined ? null : band.split ? 1 : 0
      const row = keys
        ? split === null
          ? sql.tallyCount.get(model, fingerprint, keys[0], keys[1])
          : sql.tallySplitCount.get(model, fingerprint, keys[0], keys[1], split)
        : split === null
          ? sql.countBand.get(model, fingerprint, band!.from, band!.below)
          : sql.countSplitBand.get(model, fingerprint, band!.from, band!.below, split)
      return (row as { n: number }).n
    },
    answerCells(model, fingerprint, resolution) {
      if (resolution === 'grid') return (sql.tallyCells.all(model, fingerprint) as unknown as TallyRow[]).map(gridCell)
      return sql.answerCells.all(model, fingerprint).map(
        (row): AnswerCell => ({
          label: row.label as string,
          p: row.p as number,
          margin: row.margin as number,
          count: row.count as number,
          ...(row.split ? { split: true } : {}),
        }),
      )
    },
    countSources(model, fingerprint) {
      const rows = sql.countSources.all(model, fingerprint) as { p_source: ProbabilitySource | null; n: number }[]
      return sourceCounts(rows.map((row) => [row.p_source, row.n]))
    },
    modelAnswerCounts(fingerprints) {
      const rows = sql.modelCounts.all(JSON.stringify(fingerprints)) as { model: string; n: number }[]
      return new Map(rows.map((row) => [row.model, row.n]))
    },
  }
}

/**
 * The tally's margin keys from (inclusive) and below (exclusive) of a band whose ends are on the grid; null for any
 * other band.
 */
function tallyKeys(band: MarginBand | undefined): [number, number] | null {
  const from = band?.from ?? -Infinity
  const below = band?.below ?? Infinity
  if ((from !== -Infinity && !onGrid(from)) || (below !== Infinity && !onGrid(below))) return null
  return [
    from === -Infinity ? Number.MIN_SAFE_INTEGER : gridKey(from),
    below === Infinity ? Number.MAX_SAFE_INTEGER : gridKey(below),
  ]
}

type TallyRow = [label: string, pKey: number, marginKey: number, answers: number, pNanos: number, split: number]

function gridCell([label, pKey, marginKey, count, pNanos, split]: TallyRow): AnswerCell {
  return { label, p: keyValue(pKey), margin: keyValue(marginKey), count, pNanos, ...(split ? { split: true } : {}) }
}
