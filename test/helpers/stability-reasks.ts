import { join } from 'node:path'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { ACCURACY_YAML } from './accuracy-project.ts'
import { reask } from './contracts/reask-store.ts'

/** Keeps a stability check of two re-asks of is_spam, one per stratum, in the accuracy project's store in `dir`. */
export function addReasks(dir: string): void {
  const question = parseSpec(ACCURACY_YAML, join(dir, 'spam.judge.yaml')).questions[0]
  const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
  const at = { model: 'jev-test', fingerprint: question.fingerprint, stratumSize: 3000 }
  store.addReasks([
    reask({ ...at, stateHash: 'a', stratum: 'unsure' }),
    reask({ ...at, stateHash: 'b', label: 'yes', stratum: 'confident' }),
  ])
  store.close()
}
