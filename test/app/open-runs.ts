import t from 'tap'
import { setImmediate as nextTurn, setTimeout as delay } from 'node:timers/promises'
import { openPass, type PassStart } from '../../src/app/open-runs.ts'
import { runRows } from '../../src/app/run.ts'
import type { RowsOutcome } from '../../src/core/judge/judge-rows.ts'
import { createLedger } from '../../src/core/judge/ledger.ts'
import { createStateTally } from '../../src/core/judge/state-set.ts'
import type { Engine } from '../../src/ports/engine.ts'
import type { OpenRun } from '../../src/ports/run-store.ts'
import { count, run } from '../helpers/contracts/run-store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { createMemoryFiles } from '../helpers/memory-files.ts'
import { project, spec } from '../helpers/specs.ts'

const lang = spec(
  'name: lang\nstate: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n',
  '/specs/lang.judge.yaml',
)
const folder = project(lang)
const MESSAGES = ['bonjour', 'hello', 'merci', 'hello', 'thanks']
const files = createMemoryFiles({ rows: { '/specs/messages.csv': MESSAGES.map((message) => ({ message })) } })
const source = { kind: 'file', file: '/specs/messages.csv', label: 'messages.csv' } as const

t.test(
  'while a run goes its run is open with the spend so far, in no listing; its record ends it under the same id',
  async (t) => {
    const base = createFakeEngine()
    const d = deps(null)
    const seen: OpenRun[][] = []
    // Each request looks at the store once the turn that stored the previous answers is over.
    const engine: Engine = {
      defaultModel: base.defaultModel,
      async ask(request, signal) {
        await nextTurn()
        seen.push(d.store.openRuns())
        t.same(d.store.listRuns(['lang'], 50), [], 'no listing shows a run still going')
        return base.ask(request, signal)
      },
    }
    const [done] = await runRows(app({ ...d, engine }, files), {
      project: folder,
      specs: [lang],
      source,
      cap: 1,
      concurrency: 1,
    })
    t.same(
      seen.map((open) => open.map((o) => [o.run.status, o.run.asked, o.run.requests, o.run.rows])),
      [[['running', 0, 0, 0]], [['running', 1, 1, 1]], [['running', 2, 2, 2]], [['running', 3, 3, 4]]],
      'written when judging starts, then once each answer is stored',
    )
    t.equal(seen[0][0].pid, process.pid)
    t.equal(seen[3][0].run.run_id, done.run_id, "the record keeps the open run's id")
    t.equal(
      seen[3][0].counts.reduce((sum, c) => sum + c.count, 0),
      4,
      'with its label counts so far: one a row',
    )
    t.match(done, { status: 'complete', asked: 4, rows: 5 })
    t.same(d.store.openRuns(), [], 'the record ends the open run')
  },
)

t.test('a run stopped by its caller is recorded failed: interrupted and leaves nothing open', async (t) => {
  const d = deps(createFakeEngine())
  const [done] = await runRows(app(d, files), {
    project: folder,
    specs: [lang],
    source,
    cap: 1,
    concurrency: 1,
    signal: AbortSignal.abort(),
  })
  t.equal(done.status, 'failed: interrupted')
  t.same(d.store.openRuns(), [])
})

t.test('a command starting a run records the abandoned runs of its store first', async (t) => {
  const d = deps(createFakeEngine())
  d.store.putOpenRun({
    run: run({ run_id: 'r-dead', judgment: 'lang', status: 'running', asked: 7 }),
    counts: [count('r-dead', 'lang', 'en', 7)],
    pid: 99,
    host: 'elsewhere',
    heartbeat_at: '2026-11-22T09:00:00.000',
  })
  await runRows(app(d, files), { project: folder, specs: [lang], source, cap: 1, concurrency: 1 })
  t.match(d.store.getRun('r-dead'), { status: 'failed: interrupted', asked: 7, finished_at: '2026-11-22T09:00:00.000' })
  t.equal(d.store.listRuns(['lang'], 50).length, 2)
})

function startOf(): PassStart {
  return {
    project: folder,
    record: [lang],
    named: [lang],
    provenance: { command: 'run', source: 'messages.csv', sourceHash: 'c0ffee0123456789' },
    ledger: createLedger(1),
    started: new Date('2026-11-22T09:59:00.000Z'),
  }
}

function outcomeOf(rows: number): RowsOutcome {
  return {
    rows: new Map([['lang', rows]]),
    labels: new Map([['lang', new Map()]]),
    routes: new Map(),
    states: new Map([['lang', createStateTally()]]),
    models: new Map(),
    fits: new Map(),
    sources: new Map(),
    error: null,
  }
}

t.test(
  'the heartbeat writes the run down without an answer stored; stop writes what is pending, then nothing more',
  async (t) => {
    const d = deps(null)
    const pass = startOf()
    const open = await openPass(app(d), pass, { heartbeatMs: 5 })
    const outcome = outcomeOf(0)
    open.progress(outcome)
    t.equal(d.store.openRuns()[0].run.rows, 0)
    outcome.rows.set('lang', 3)
    open.progress(outcome)
    t.equal(d.store.openRuns()[0].run.rows, 0, 'rows from the store move no spend, and wait for the heartbeat')
    while (d.store.openRuns()[0].run.rows !== 3) await delay(5)
    pass.ledger.tally('lang').requests = 1
    open.progress(outcome)
    open.progress(outcome)
    t.equal(d.store.openRuns()[0].run.requests, 0, 'a spend is written at the end of the turn, once')
    open.stop()
    t.equal(d.store.openRuns()[0].run.requests, 1, 'stop writes it at once')
    outcome.rows.set('lang', 9)
    await delay(30)
    t.equal(d.store.openRuns()[0].run.rows, 3, 'no heartbeat after stop')
  },
)

t.test('a write that fails leaves the last one standing and never throws', async (t) => {
  const d = deps(null)
  const failing = {
    ...d,
    store: {
      ...d.store,
      putOpenRun: () => {
        throw new Error('database is locked')
      },
    },
  }
  const pass = startOf()
  const open = await openPass(app(failing), pass, { heartbeatMs: 5 })
  const outcome = outcomeOf(1)
  t.doesNotThrow(() => open.progress(outcome))
  pass.ledger.tally('lang').requests = 1
  open.progress(outcome)
  await delay(20)
  open.progress(outcome)
  pass.ledger.tally('lang').requests = 2
  open.progress(outcome)
  t.doesNotThrow(() => open.stop())
  t.same(d.store.openRuns(), [])
})
