import t from 'tap'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { RUN_FIELDS } from '../../../src/app/runs.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'
const mix = (yes: number, no: number) => ({ is_spam: { yes, no }, topic: { personal: yes, promotion: no }, urgency: { low: yes + no } })

t.test('GET /v1/runs gives at most 50 run records, newest first, with exactly the seed fields', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const seeded = seedRuns(dir, Array.from({ length: 55 }, (_, i) => ({ judgment: 'spam', counts: mix(i, 100 - i), status: i === 54 ? 'failed: engine answered 500: overloaded' : undefined })))
  const server = await startJudgeServer(t, dir)
  const res = await server.get('/v1/runs?path=spam.judge.yaml')
  t.equal(res.status, 200)
  t.equal(res.body.length, 50)
  t.same(res.body.map((r: any) => r.run_id), seeded.slice(5).reverse().map((r) => r.run_id))
  for (const run of res.body) {
    t.same(Object.keys(run), [...RUN_FIELDS])
    t.match(run, {
      run_id: /^\d{8}T\d{6}Z-[0-9a-z]{6}$/, judgment: 'spam', spec_hash: String, git_sha: String, model: String,
      rows: Number, asked: Number, cost: Number, status: /^(complete|failed: .+)$/,
      started_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/, finished_at: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}$/,
    })
    t.ok(Number.isInteger(run.rows) && Number.isInteger(run.asked))
  }
  t.equal(res.body[0].status, 'failed: engine answered 500: overloaded')
})

t.test('GET /v1/runs covers every judgment of a folder, or the one named by node', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  seedRuns(dir, [{ judgment: 'spam', counts: mix(1, 1) }, { judgment: 'tone', counts: { tone: { yes: 2 } } }, { judgment: 'gone', counts: {} }])
  const server = await startJudgeServer(t, dir)
  t.same((await server.get('/v1/runs?path=.')).body.map((r: any) => r.judgment), ['tone', 'spam'])
  t.same((await server.get('/v1/runs?path=.&node=spam')).body.map((r: any) => r.judgment), ['spam'])
  t.same((await server.get('/v1/runs?path=tone.judge.yaml')).body.map((r: any) => r.judgment), ['tone'])
  t.match(await server.get('/v1/runs?path=.&node=gone'), { status: 400, body: { error: /unknown node "gone"/ } })
  t.match(await server.get('/v1/runs'), { status: 400, body: { error: /path is required/ } })
  t.match(await server.get('/v1/runs?path='), { status: 400, body: { error: /path is required/ } })
})

t.test('GET /v1/drift gives each question its runs oldest first, the first change null, alerts only above 0.10', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const seeded = seedRuns(dir, [
    { judgment: 'spam', counts: mix(50, 50) },
    { judgment: 'spam', counts: mix(60, 40) },
    { judgment: 'spam', counts: mix(75, 25) },
    { judgment: 'spam', counts: mix(75, 25) },
  ])
  const server = await startJudgeServer(t, dir)
  const res = await server.get('/v1/drift?path=spam.judge.yaml')
  t.equal(res.status, 200)
  t.same(Object.keys(res.body), ['is_spam', 'topic', 'urgency'])
  const entries = res.body.is_spam
  t.same(entries.map((e: any) => e.run_id), seeded.map((r) => r.run_id), 'oldest first')
  t.same(entries.map((e: any) => e.change), [null, 0.1, 0.15, 0])
  t.same(entries.map((e: any) => e.alert), [false, false, true, false], 'exactly 0.10 is no alert; 0.15 is')
  for (const entry of entries) {
    t.same(Object.keys(entry).sort(), ['alert', 'change', 'rows', 'run_id', 'shares'])
    t.equal(entry.rows, 100)
    t.ok(Number.isInteger(entry.rows))
    t.equal(Object.values<number>(entry.shares).reduce((a, b) => a + b, 0), 1, 'shares sum to 1')
  }
  t.same(entries[1].shares, { yes: 0.6, no: 0.4 })
  t.same(res.body.urgency.map((e: any) => e.change), [null, 0, 0, 0])
})

t.test('GET /v1/drift needs node for a folder of several judgments and refuses an unknown one', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  seedRuns(dir, [{ judgment: 'tone', counts: { tone: { yes: 3, no: 1 } } }])
  const server = await startJudgeServer(t, dir)
  t.match(await server.get('/v1/drift?path=.'), { status: 400, body: { error: /holds 2 judgments \(spam, tone\); name one with node/ } })
  t.match(await server.get('/v1/drift?path=.&node=nope'), { status: 400, body: { error: /unknown node "nope"/ } })
  t.same((await server.get('/v1/drift?path=.&node=tone')).body, { tone: [{ run_id: String((await server.get('/v1/runs?path=.')).body[0].run_id), rows: 4, shares: { yes: 0.75, no: 0.25 }, change: null, alert: false }] })
  t.same((await server.get('/v1/drift?path=.&node=spam')).body, { is_spam: [], topic: [], urgency: [] }, 'every question, with no runs')
})

t.test('reading runs and drift of a project without a store creates no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const server = await startJudgeServer(t, dir)
  t.same((await server.get('/v1/runs?path=spam.judge.yaml')).body, [])
  t.same((await server.get('/v1/drift?path=spam.judge.yaml')).body, { is_spam: [], topic: [], urgency: [] })
  t.equal((await server.get('/runs?path=spam.judge.yaml')).status, 200)
  t.equal((await server.get('/')).status, 200)
  t.notOk(existsSync(join(dir, '.judge')))
})
