import t from 'tap'
import { join } from 'node:path'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import { createFakeEngine } from './helpers/fake-engine.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { SPAM_YAML } from './helpers/specs.ts'

// A store has one staleness signal, its write mark: every cache of the store checks it, so that
// what a server keeps in memory from a store never outlives a write to it by any process.

t.test(
  'answers deleted by another process are asked again from the next request on, without waiting for a recheck',
  async (t) => {
    const root = t.testdir({ sms: { 'spam.judge.yaml': SPAM_YAML }, '.judge': { 'store.sqlite': '' } })
    // The server's clock stands still: no path is checked against the disk again.
    const clock = Date.parse('2026-01-01T00:00:00Z')
    const engine = createFakeEngine()
    const server = await startJudgeServer(t, root, {}, { engine, now: () => new Date(clock) })
    const row = { message: 'Free entry! Text WIN' }
    const first = await server.post('/v1/judge', { path: 'sms/spam.judge.yaml', row })
    t.equal(first.body.is_spam.cached, false, 'asked and stored')
    const again = await server.post('/v1/judge', `{ "row": ${JSON.stringify(row)}, "path": "sms/spam.judge.yaml" }`)
    t.equal(again.body.is_spam.cached, true, 'another body for the same row: the answer kept')

    // `judge cache --prune` in another process deletes the answers.
    const other = openSqliteStore(join(root, '.judge', 'store.sqlite'))
    t.ok(
      other.answerGroups().length > 0 && other.answerGroups().every((g) => other.deleteAnswers(g) > 0),
      'the answers deleted',
    )
    other.close()
    const asked = engine.calls.length
    const pruned = await server.post('/v1/judge', `{"row": ${JSON.stringify(row)}, "path": "sms/spam.judge.yaml"}`)
    t.equal(pruned.status, 200)
    t.equal(pruned.body.is_spam.cached, false, 'not an answer kept from before the deletion: asked again')
    t.equal(engine.calls.length, asked + 1)
  },
)
