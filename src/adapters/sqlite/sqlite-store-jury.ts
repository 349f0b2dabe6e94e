import type { DatabaseSync } from 'node:sqlite'
import type { JuryStore, LabelPattern } from '../../ports/jury-store.ts'
import { prepareEach } from './sqlite-statements.ts'

/**
 * The SQL of the jury's statements. A state's labels are gathered into one JSON object keyed by the juror's place in
 * the list (a JSON array bound to json_each), ordered by it so that one pattern has one text; then counted.
 */
export const JURY_SQL = {
  labelPatterns: `SELECT pattern, count(*) AS count FROM (
      SELECT json_group_object(j.key, a.label ORDER BY j.key) AS pattern
      FROM json_each(?1) j CROSS JOIN _judge_answers a ON a.model = j.value AND a.fingerprint = ?2
      GROUP BY a.state_hash)
    GROUP BY pattern`,
} as const

/** The jury's methods of a SQLite store, over its connection. */
export function juryMethods(db: DatabaseSync): JuryStore {
  const st = prepareEach(db, JURY_SQL)
  return {
    labelPatterns(models, fingerprint) {
      const rows = st.labelPatterns.all(JSON.stringify(models), fingerprint) as { pattern: string; count: number }[]
      return rows.map((row): LabelPattern => {
        const said = JSON.parse(row.pattern) as Record<string, string>
        return { labels: models.map((_, i) => said[i] ?? null), count: row.count }
      })
    },
  }
}
