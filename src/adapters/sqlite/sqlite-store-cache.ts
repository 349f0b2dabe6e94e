import type { AnswerGroup } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'
import type { Statements } from './sqlite-statements.ts'

/** The methods of the port that list and prune the cache by answer group, and tell when it was pruned or written. */
export type CacheMethods = Pick<Store, 'answerGroups' | 'deleteAnswers' | 'answersEpoch' | 'writeMark'>

/** The cache methods of a SQLite store, over its prepared statements and write transaction. */
export function cacheMethods(sql: Statements, transaction: (work: () => void) => void): CacheMethods {
  return {
    answerGroups() {
      return sql.answerGroups.all().map((row) => ({ ...row }) as unknown as AnswerGroup)
    },
    deleteAnswers(group) {
      let deleted = 0
      transaction(() => {
        deleted = Number(sql.deleteAnswers.run(group.model, group.fingerprint, group.judgment, group.question).changes)
        if (deleted > 0) sql.bumpAnswersEpoch.run()
      })
      return deleted
    },
    answersEpoch() {
      return Number((sql.answersEpoch.get() as { value: number }).value)
    },
    writeMark() {
      const { version, changes } = sql.writeMark.get() as { version: number; changes: number }
      return `${version}:${changes}`
    },
  }
}
