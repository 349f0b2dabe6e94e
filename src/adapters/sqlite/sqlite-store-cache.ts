import type { AnswerGroup } from '../../ports/answer-store.ts'
import type { Store } from '../../ports/store.ts'
import type { Statements } from './sqlite-statements.ts'

/** The methods of the port that list and prune the cache by answer group, and give the store's write mark. */
export type CacheMethods = Pick<Store, 'answerGroups' | 'deleteAnswers' | 'writeMark'>

/** The cache methods of a SQLite store, over its prepared statements and write transaction. */
export function cacheMethods(sql: Statements, transaction: (work: () => void) => void): CacheMethods {
  // The mark counts the changes seen of SQLite's pair: data_version (another connection's commits)
  // and total_changes (the rows this one wrote).
  let version = -1
  let changes = -1
  let mark = 0
  return {
    answerGroups() {
      return sql.answerGroups.all().map((row) => ({ ...row }) as unknown as AnswerGroup)
    },
    deleteAnswers(group) {
      let deleted = 0
      transaction(() => {
        deleted = Number(sql.deleteAnswers.run(group.model, group.fingerprint, group.judgment, group.question).changes)
      })
      return deleted
    },
    writeMark() {
      const now = sql.writeMark.get() as { version: number; changes: number }
      if (now.version !== version || now.changes !== changes) {
        version = now.version
        changes = now.changes
        mark++
      }
      return mark
    },
  }
}
