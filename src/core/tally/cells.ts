import type { AnswerCell, CellResolution } from '../../ports/answer-store.ts'
import type { Question, Spec } from '../types.ts'
import { gridKey, keyValue, nanosOf, onGrid } from './grid.ts'

export type { CellResolution } from '../../ports/answer-store.ts'

/** The nanos of a cell's p summed over its answers: given by a grid cell, `count` times p for an exact one. */
export function pNanosOf(cell: AnswerCell): number {
  return cell.pNanos ?? cell.count * nanosOf(cell.p)
}

/**
 * Exact cells gathered into the grid's cells, as the store's tally keeps them: each cell's p and
 * margin are the values that stand for it (core/tally/grid.ts), its p summed in nanos, a jury's
 * split answers apart from the others (`split`). In the order the store gives them: by label, then
 * p, then margin, then the others before the split ones.
 */
export function gridCells(cells: Iterable<AnswerCell>): AnswerCell[] {
  type Held = { label: string; p: number; margin: number; count: number; pNanos: number; split: number }
  const byKey = new Map<string, Held>()
  for (const cell of cells) {
    const p = gridKey(cell.p)
    const margin = gridKey(cell.margin)
    const split = cell.split ? 1 : 0
    const id = `${cell.label}\0${p}\0${margin}\0${split}`
    const held = byKey.get(id)
    if (held) {
      held.count += cell.count
      held.pNanos += pNanosOf(cell)
    } else {
      byKey.set(id, { label: cell.label, p, margin, count: cell.count, pNanos: pNanosOf(cell), split })
    }
  }
  return [...byKey.values()]
    .sort((a, b) =>
      a.label < b.label ? -1 : a.label > b.label ? 1 : a.p - b.p || a.margin - b.margin || a.split - b.split,
    )
    .map((c) => ({
      label: c.label,
      p: keyValue(c.p),
      margin: keyValue(c.margin),
      count: c.count,
      pNanos: c.pNanos,
      ...(c.split ? { split: true } : {}),
    }))
}

/**
 * The values a question's figures compare p and margin with: the spec's `unsure_below` (the
 * strata) and the values of its `act` rules. The calibration's bins and the thresholds tried are
 * hundredths, always on the grid.
 */
export function cutsOf(spec: Spec, question: Question): number[] {
  const rules = spec.act[question.name] ?? []
  return [
    spec.unsureBelow,
    ...rules.flatMap((r) => [r.when.p?.value, r.when.margin?.value].filter((v) => v !== undefined)),
  ]
}

/**
 * The resolution a question's figures need: the grid when every value they compare with is a
 * hundredth, so that each grid cell lies wholly on one side of each; else every exact value.
 */
export function resolutionOf(spec: Spec, question: Question): CellResolution {
  return cutsOf(spec, question).every(onGrid) ? 'grid' : 'exact'
}
