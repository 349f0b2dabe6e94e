import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import type { HttpRequest } from '../../../src/http/context.ts'
import { runsData } from '../../../src/http/page-data/runs.ts'
import { pair } from '../../helpers/contracts/kept-store.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { serverContext } from '../../helpers/server-context.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const request = (query: Record<string, string>): HttpRequest => ({
  method: 'GET',
  pathname: '/runs',
  query: new URLSearchParams(query),
  params: {},
  headers: {},
  token: null,
  body: '',
  json: async () => ({}),
  form: async () => new URLSearchParams(),
})

t.test(
  "the runs page's data: the runs, and per judgment its drifts, labels, run starts and shadow agreement",
  async (t) => {
    const dir = t.testdir({ sms: { 'spam.judge.yaml': SPAM_YAML } })
    const [first, second] = seedRuns(join(dir, 'sms'), [
      { judgment: 'spam', counts: { is_spam: { yes: 1, no: 3 } } },
      { judgment: 'spam', counts: { is_spam: { yes: 3, no: 1 } } },
    ])
    const store = openSqliteStore(join(dir, 'sms', '.judge', 'store.sqlite'))
    store.recordShadow([pair(), pair({ stateHash: 'state-1', candidateLabel: 'yes' })])
    store.close()
    const data = runsData(serverContext(t, dir), request({ path: 'sms' }))
    t.match(data, { path: 'sms', node: null })
    t.same(
      data.runs.map((r) => r.run_id),
      [second.run_id, first.run_id],
      'newest first',
    )
    const [spam] = data.judgments
    t.equal(spam.name, 'spam')
    t.same(spam.labels.is_spam, ['yes', 'no'])
    t.same(Object.keys(spam.started), [first.run_id, second.run_id])
    t.same(
      spam.drift.is_spam.map((e) => e.run_id),
      [first.run_id, second.run_id],
    )
    t.match(spam.shadows, [
      { candidate: 'spam-v2', candidate_hash: 'cand-1', question: 'is_spam', rows: 2, agree: 1, agreement: 0.5 },
    ])
  },
)

t.test('a folder without a store has no runs and no shadows, and reading it creates no store', async (t) => {
  const dir = t.testdir({ sms: { 'spam.judge.yaml': SPAM_YAML } })
  const data = runsData(serverContext(t, dir), request({ path: 'sms', node: 'spam' }))
  t.same(data.runs, [])
  t.same(
    data.judgments.map((j) => [j.name, j.shadows, j.drift.is_spam]),
    [['spam', [], []]],
  )
  t.notOk(existsSync(join(dir, 'sms', '.judge')), 'no store was made')
})
