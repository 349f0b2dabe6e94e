import { shortHash } from '../../src/core/hash.ts'
import { stateHash, stateOf } from '../../src/core/judge/state.ts'
import {
  comparisonsOf,
  lineOfRetraction,
  standingReviews,
  standingVerdicts,
  type Retraction,
  type ReviewLine,
} from '../../src/core/review/retraction.ts'
import type { ComparisonRecord } from '../../src/core/review/comparison-verdict.ts'
import type { KeyRow, VerdictRecord } from '../../src/core/review/verdicts.ts'
import type { Row, SourcedRow, Spec, State } from '../../src/core/types.ts'
import { NotFoundError } from '../../src/errors.ts'
import type { Files } from '../../src/ports/files.ts'

/** What the in-memory files hold, by absolute path: data rows, answer keys (state columns and labels) and verdicts. */
export interface MemoryFilesContent {
  readonly rows?: Readonly<Record<string, readonly Row[]>>
  readonly keys?: Readonly<Record<string, readonly Row[]>>
  readonly verdicts?: Readonly<Record<string, readonly VerdictRecord[]>>
  /** The commit every folder is in; default `abc1234`. */
  readonly sha?: string
}

/** The in-memory files port: also shows every verdict appended, per reviews file, in order, and every retraction. */
export interface MemoryFiles extends Files {
  readonly appended: Map<string, VerdictRecord[]>
  readonly retracted: Map<string, Retraction[]>
}

/** A Files port over data held in memory, for use-case tests; see MemoryFilesContent. */
export function createMemoryFiles(content: MemoryFilesContent = {}): MemoryFiles {
  const appended = new Map(Object.entries(content.verdicts ?? {}).map(([file, records]) => [file, [...records]]))
  const retracted = new Map<string, Retraction[]>()
  // Every line of each reviews file, in order, as the local files would read them back, with the state and time it holds.
  const lines = new Map<string, Line[]>([...appended].map(([file, records]) => [file, records.map(verdictLine)]))
  const add = (file: string, line: Line) => lines.set(file, [...(lines.get(file) ?? []), line])
  const read = (file: string) => (lines.get(file) ?? []).map((l) => l.line)
  return {
    appended,
    retracted,
    async *rows(file: string, label: string): AsyncGenerator<SourcedRow> {
      const rows = content.rows?.[file]
      if (!rows) throw new NotFoundError(`${label}: no such data file`)
      // Rows arrive one at a time, as from a file being read.
      for (const [i, row] of rows.entries()) yield await Promise.resolve({ row, where: `${label}:${i + 2}` })
    },
    async key(spec) {
      const records = spec.key === null ? [] : (content.keys?.[spec.key] ?? [])
      return new Map(
        records.map((record, i) => keyRow(spec, record, `${spec.key}:${i + 2}`)).map((r) => [r.stateHash, r]),
      )
    },
    async verdicts(spec) {
      return standingVerdicts(read(spec.reviews))
    },
    async reviews(spec) {
      return standingReviews(read(spec.reviews))
    },
    async comparisons(spec) {
      return comparisonsOf(read(spec.reviews))
    },
    async appendComparison(spec, record) {
      add(spec.reviews, {
        line: { type: 'comparison', record },
        judgment: record.judgment,
        state: record.state,
        reviewed_at: record.reviewed_at,
      })
    },
    async appendVerdict(spec, record) {
      appended.set(spec.reviews, [...(appended.get(spec.reviews) ?? []), record])
      add(spec.reviews, verdictLine(record))
    },
    async appendRetraction(spec, retraction) {
      retracted.set(spec.reviews, [...(retracted.get(spec.reviews) ?? []), retraction])
      add(spec.reviews, {
        line: lineOfRetraction(retraction),
        judgment: retraction.withdrawn.judgment,
        state: retraction.withdrawn.state,
        reviewed_at: retraction.retracted_at,
      })
    },
    async forgetReviewStates(spec, pick, apply) {
      const counts = new Map<string, number>()
      const kept = (lines.get(spec.reviews) ?? []).map((l) => {
        const stateHash = l.line.type === 'retraction' ? l.line.state_hash : l.line.record.state_hash
        if (!pick({ judgment: l.judgment, state_hash: stateHash, state: l.state, reviewed_at: l.reviewed_at })) return l
        counts.set(stateHash, (counts.get(stateHash) ?? 0) + 1)
        if (l.line.type === 'verdict') return verdictLine({ ...l.line.record, state: {} })
        return l.line.type === 'comparison'
          ? {
              ...l,
              line: { type: 'comparison' as const, record: { ...l.line.record, state: {} } as ComparisonRecord },
              state: {},
            }
          : { ...l, state: {} }
      })
      if (apply) lines.set(spec.reviews, kept)
      return counts
    },
    gitSha: async () => content.sha ?? 'abc1234',
    contentHash: async (file) => (content.rows?.[file] ? shortHash(JSON.stringify(content.rows[file])) : ''),
  }
}

/** A line of a reviews file as the fake holds it: what a reader gets back, and the state and time written on it. */
interface Line {
  readonly line: ReviewLine
  readonly judgment: string
  readonly state: State
  readonly reviewed_at: string
}

function verdictLine(record: VerdictRecord): Line {
  return {
    line: { type: 'verdict', record },
    judgment: record.judgment,
    state: record.state,
    reviewed_at: record.reviewed_at,
  }
}

function keyRow(spec: Spec, record: Row, where: string): KeyRow {
  const state = stateOf(record, spec.state, where)
  const labels = Object.fromEntries(
    spec.questions
      .filter((q) => typeof record[q.name] === 'string' && record[q.name] !== '')
      .map((q) => [q.name, record[q.name] as string]),
  )
  return { stateHash: stateHash(state), state, labels, where }
}
