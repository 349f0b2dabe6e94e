import { sampleRank } from '../../core/stats/sample-rank.ts'
import type { ProbabilitySource, State } from '../../core/types.ts'
import type { StoredAnswer } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'
import { sqlLimit } from './sqlite-statements.ts'
import type { AnswerRow, Statements } from './sqlite-statements.ts'

/** The methods of the port that read and write answers and states. */
export type AnswerMethods = Pick<
  Store,
  | 'getAnswers'
  | 'answeredFingerprints'
  | 'putAnswers'
  | 'replaceAnswers'
  | 'getStates'
  | 'answersForStates'
  | 'answerLabels'
  | 'sampleAnswers'
>

/** When a state written with these answers was stored: the latest time one of them was asked. */
export function storedAt(answers: readonly StoredAnswer[]): string {
  return answers.reduce((latest, a) => (a.askedAt > latest ? a.askedAt : latest), '')
}

/** Answers stored through one store since it opened: what a full disk keeps (store-trouble.ts). */
export interface KeptCount {
  answers: number
}

/**
 * The answer methods of a SQLite store, over its prepared statements and write transaction; each
 * answer stored is counted in `kept`.
 */
export function answerMethods(
  sql: Statements,
  transaction: (work: () => void) => void,
  kept: KeptCount = { answers: 0 },
): AnswerMethods {
  // Puts the answers and the state's values in one transaction; `replace` first deletes the keys given, each with its
  // own DELETE so that the tally's delete trigger counts the old answer out (an INSERT OR REPLACE would not fire it).
  const write = (answers: readonly StoredAnswer[], stateHash: string, state: State, replace: boolean) => {
    let stored: StoredAnswer[] = []
    transaction(() => {
      sql.putState.run(stateHash, JSON.stringify(state), storedAt(answers))
      for (const a of answers) {
        if (replace) sql.dropAnswer.run(a.model, a.fingerprint, a.stateHash)
        sql.putAnswer.run(
          a.model,
          a.fingerprint,
          a.stateHash,
          a.judgment,
          a.question,
          a.label,
          a.p,
          a.margin,
          JSON.stringify(a.distribution),
          a.askedAt,
          sampleRank(a.judgment, a.question, a.stateHash),
          a.reportedModel ?? a.model,
          a.optionMass ?? null,
          sourceToWrite(a),
          a.samples ?? null,
          a.dissent ?? null,
        )
      }
      // Read back under the same write lock: where another process wrote a key first, its answer stands.
      stored = answers.map((a) =>
        answerOf(sql.getAnswer.get(a.model, a.stateHash, a.fingerprint) as unknown as AnswerRow),
      )
    })
    kept.answers += answers.length
    return stored
  }
  return {
    getAnswers(model, stateHash, fingerprints) {
      const found = new Map<string, StoredAnswer>()
      if (fingerprints.length === 0) return found
      // One search for every answer of the state (they are adjacent in the key), then the ones
      // asked, in the order asked; a state rarely has answers beyond the questions of its spec.
      const rows = sql.getAnswers.all(model, stateHash) as unknown as AnswerRow[]
      for (const fingerprint of fingerprints) {
        const row = rows.find((r) => r[1] === fingerprint)
        if (row) found.set(fingerprint, answerOf(row))
      }
      return found
    },
    answeredFingerprints(model, stateHash, fingerprints) {
      const rows = sql.answeredFingerprints.all(model, stateHash) as unknown as [fingerprint: string][]
      const held = new Set(rows.map((row) => row[0]))
      return new Set(fingerprints.filter((fingerprint) => held.has(fingerprint)))
    },
    putAnswers(answers, stateHash, state) {
      return write(answers, stateHash, state, false)
    },
    replaceAnswers(answers, stateHash, state) {
      return write(answers, stateHash, state, true)
    },
    getStates(stateHashes) {
      const states = new Map<string, State>()
      for (const row of sql.getStates.all(JSON.stringify(stateHashes))) {
        states.set(row.state_hash as string, JSON.parse(row.state as string) as State)
      }
      return states
    },
    answersForStates(model, fingerprint, stateHashes) {
      const unique = JSON.stringify([...new Set(stateHashes)])
      return answersOf(sql.answersForStates.all(unique, model, fingerprint))
    },
    answerLabels(model, fingerprints, stateHashes) {
      const labels = new Map(fingerprints.map((fp) => [fp, new Map<string, string>()]))
      const rows = sql.answerLabels.all(JSON.stringify([...new Set(stateHashes)]), model) as unknown as [
        string,
        string,
        string,
      ][]
      for (const [fingerprint, hash, label] of rows) labels.get(fingerprint)?.set(hash, label)
      return labels
    },
    sampleAnswers(model, fingerprint, _judgment, _question, limit, band) {
      // The order is the rank stored with each answer when it was first asked (docs/store.md).
      if (!band) return answersOf(sql.sampleAnswers.all(model, fingerprint, sqlLimit(limit)))
      if (band.split === undefined)
        return answersOf(sql.sampleBand.all(model, fingerprint, band.from, band.below, sqlLimit(limit)))
      const split = band.split ? 1 : 0
      return answersOf(sql.sampleSplitBand.all(model, fingerprint, band.from, band.below, split, sqlLimit(limit)))
    },
  }
}

const answersOf = (rows: unknown[]): StoredAnswer[] => (rows as AnswerRow[]).map(answerOf)

function answerOf(row: AnswerRow): StoredAnswer {
  const [
    model,
    fingerprint,
    stateHash,
    judgment,
    question,
    label,
    p,
    margin,
    distribution,
    askedAt,
    reported,
    optionMass,
    source,
    samples,
    dissent,
  ] = row
  // Answers stored before the reported model was kept have none: the model asked stands in.
  return {
    model,
    fingerprint,
    stateHash,
    judgment,
    question,
    distribution: JSON.parse(distribution),
    label,
    p,
    margin,
    askedAt,
    reportedModel: reported || model,
    optionMass,
    source: source as ProbabilitySource | null,
    samples,
    dissent,
  }
}

/**
 * The source an answer is written with: its own, `distribution` when it says none (the engine's own distribution), and
 * null only when it says null (an answer from before sources were kept, written again).
 */
export function sourceToWrite(answer: StoredAnswer): ProbabilitySource | null {
  return answer.source === undefined ? 'distribution' : answer.source
}
