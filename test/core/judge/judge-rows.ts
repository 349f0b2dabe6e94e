import t from 'tap'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import {
  fitOf,
  judgeRows,
  labelCountsOf,
  newRunId,
  reportedModelOf,
  runRecord,
  runStatus,
} from '../../../src/core/judge/judge-rows.ts'
import type { SourcedRow } from '../../../src/core/types.ts'
import type { EngineRequest } from '../../../src/ports/engine.ts'
import { withDependencies } from '../../../src/core/judge/select.ts'
import { createStateSet, tallyOver } from '../../../src/core/judge/state-set.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { deps } from '../../helpers/deps.ts'
import { project, spec } from '../../helpers/specs.ts'

const spam = spec()
async function* rows(messages: string[]): AsyncGenerator<SourcedRow> {
  for (const [i, message] of messages.entries()) yield { row: { message }, where: `row ${i + 1}` }
}

t.test(
  'rows are judged with bounded concurrency and labels are counted per row, with their distinct states and Σ m²',
  async (t) => {
    const engine = createFakeEngine({
      latencyMs: 5,
      answer: (q, s) =>
        q.type === 'yes_no'
          ? s.message.startsWith('spam')
            ? { yes: 0.9, no: 0.1 }
            : { yes: 0.1, no: 0.9 }
          : Object.fromEntries(q.labels.map((l, i) => [l, i === 0 ? 1 : 0])),
    })
    const seen: number[] = []
    const outcome = await judgeRows(
      { deps: deps(engine), ledger: createLedger(1) },
      withDependencies(project(spam), [spam]),
      rows(['spam 1', 'ham 1', 'spam 2', 'ham 2', 'ham 3', 'spam 1']),
      {
        concurrency: 2,
        onRow: (seq) => seen.push(seq),
      },
    )
    t.equal(outcome.error, null)
    t.equal(outcome.rows.get('spam'), 6)
    t.ok(engine.maxInFlight <= 2, `at most 2 in flight (saw ${engine.maxInFlight})`)
    t.same(seen.sort(), [0, 1, 2, 3, 4, 5])
    const counts = labelCountsOf(outcome, 'spam', 'r1').filter((c) => c.question === 'is_spam')
    t.same(
      counts.sort((a, b) => a.label.localeCompare(b.label)),
      [
        { run_id: 'r1', question: 'is_spam', label: 'no', count: 3, states: 3, squares: 3 },
        { run_id: 'r1', question: 'is_spam', label: 'yes', count: 3, states: 2, squares: 5 },
      ],
      '"spam 1" twice: 2 states of "yes", 2² + 1² rows squared',
    )
  },
)

t.test('the first error stops the rows, keeps what was judged, and is returned, not thrown', async (t) => {
  const engine = createFakeEngine({ fail: (_r, i) => (i === 2 ? new Error('boom') : undefined) })
  const d = deps(engine)
  const outcome = await judgeRows(
    { deps: d, ledger: createLedger(1) },
    withDependencies(project(spam), [spam]),
    rows(['a', 'b', 'c', 'd', 'e']),
    { concurrency: 1 },
  )
  t.equal(outcome.error?.message, 'boom')
  t.equal(outcome.rows.get('spam'), 2)
  t.equal(d.store.countAnswers('jev-test', spam.questions[0].fingerprint), 2, 'answers received stay stored')
})

t.test(
  'a row lacking a state column stops the rows with an error naming it, cached rows before it counted',
  async (t) => {
    const d = deps(createFakeEngine())
    await judgeRows({ deps: d, ledger: createLedger(1) }, withDependencies(project(spam), [spam]), rows(['a', 'b']), {
      concurrency: 2,
    })
    async function* withBadRow(): AsyncGenerator<SourcedRow> {
      yield* rows(['a', 'b'])
      yield { row: { text: 'no message' }, where: 'data.csv:4' }
      yield* rows(['c'])
    }
    const outcome = await judgeRows(
      { deps: d, ledger: createLedger(1) },
      withDependencies(project(spam), [spam]),
      withBadRow(),
      { concurrency: 2 },
    )
    t.match(outcome.error?.message, /data\.csv:4: the row lacks the state column "message"/)
    t.equal(outcome.rows.get('spam'), 2, 'the two cached rows before it were judged, the row after it was not')
  },
)

t.test('an error reading rows is returned as the outcome error', async (t) => {
  async function* broken(): AsyncGenerator<SourcedRow> {
    yield { row: { message: 'a' }, where: '1' }
    throw new Error('disk gone')
  }
  const outcome = await judgeRows(
    { deps: deps(createFakeEngine()), ledger: createLedger(1) },
    withDependencies(project(spam), [spam]),
    broken(),
    { concurrency: 4 },
  )
  t.equal(outcome.error?.message, 'disk gone')
  t.equal(outcome.rows.get('spam'), 1)
})

t.test('an aborted signal stops taking rows and fails the outcome as interrupted', async (t) => {
  const controller = new AbortController()
  const outcome = await judgeRows(
    { deps: deps(createFakeEngine()), ledger: createLedger(1), signal: controller.signal },
    withDependencies(project(spam), [spam]),
    rows(['a', 'b', 'c']),
    {
      concurrency: 1,
      onRow: () => controller.abort(),
    },
  )
  t.equal(outcome.error?.message, 'interrupted')
  t.equal(outcome.rows.get('spam'), 1)
})

t.test('run ids sort by time and carry a random suffix; status names the error', async (t) => {
  t.equal(
    newRunId(new Date('2026-11-22T04:31:07.250Z'), () => 0.5),
    '20261122T043107Z-i00000',
  )
  t.ok(newRunId(new Date('2026-11-22T04:31:07Z')) < newRunId(new Date('2026-11-22T04:31:08Z')))
  t.equal(runStatus(null), 'complete')
  t.equal(runStatus(new Error('engine answered 500')), 'failed: engine answered 500')
  t.equal(
    runRecord({
      run_id: 'r',
      judgment: 'j',
      spec_hash: 'h',
      git_sha: '',
      model: 'm',
      rows: 1,
      asked: 0,
      cost: 0,
      started_at: 'a',
      finished_at: 'b',
      cached: 3,
      requests: 0,
      command: 'run',
      source: 'd.csv',
      source_hash: '',
      node: 'j',
      reported_model: 'm',
      states: 1,
      fingerprints: {},
      error: new Error('x'),
    }).status,
    'failed: x',
  )
})

t.test(
  "each judgment's distinct states are tallied with their rows; a repeated row is a duplicate, not a cache hit",
  async (t) => {
    const engine = createFakeEngine({ latencyMs: 2 })
    const d = deps(engine)
    const ledger = createLedger(1)
    const outcome = await judgeRows(
      { deps: d, ledger },
      withDependencies(project(spam), [spam]),
      rows(['a', 'b', 'a', 'a', 'c', 'b']),
      { concurrency: 3 },
    )
    t.equal(outcome.error, null)
    const tally = outcome.states.get('spam')!
    t.equal(tally.size, 3)
    t.same([...tally.entries()].map((e) => e.rows).sort(), [1, 2, 3])
    t.match(
      ledger.tally('spam'),
      { cached: 0, asked: 9, requests: 3, duplicates: 3 },
      'rows joining a request in flight are duplicates too',
    )
    const again = createLedger(1)
    await judgeRows({ deps: d, ledger: again }, withDependencies(project(spam), [spam]), rows(['a', 'b', 'a']), {
      concurrency: 1,
    })
    t.match(again.tally('spam'), { cached: 6, asked: 0, duplicates: 1 })
    t.equal(engine.calls.length, 3)
  },
)

t.test("a tally taking over the plan's states lists only the states judged, with their rows", async (t) => {
  const expected = createStateSet()
  for (const message of ['a', 'b', 'c', 'd']) expected.add(stateHash({ message }))
  const engine = createFakeEngine({ fail: (_r, i) => (i === 2 ? new Error('boom') : undefined) })
  const outcome = await judgeRows(
    { deps: deps(engine), ledger: createLedger(1) },
    withDependencies(project(spam), [spam]),
    rows(['a', 'e', 'a', 'b', 'c', 'd']),
    { concurrency: 1, expected: new Map([['spam', expected]]) },
  )
  t.equal(outcome.error?.message, 'boom')
  const tally = outcome.states.get('spam')!
  t.equal(tally.size, 2, 'a, planned, and e, not')
  t.same(
    [...tally.entries()],
    [
      { stateHash: stateHash({ message: 'a' }), rows: 2 },
      { stateHash: stateHash({ message: 'e' }), rows: 1 },
    ].sort((x, y) => (x.stateHash < y.stateHash ? -1 : 1)),
  )
  t.match(
    outcome.models.get('spam')!.asked,
    new Map([['jev-test', 6]]),
    'each judged state counted once, as in a tally of its own',
  )
  t.throws(() => tallyOver(expected), TypeError, "the plan's table was taken over, not copied")
})

t.test(
  "each question's option mass is tallied once per distinct state, from the store on a second pass too",
  async (t) => {
    const mass: Record<string, number> = { a: 0.1, b: 0.2, c: 0.9 }
    const engine = createFakeEngine({ optionMass: (q, s) => (q.name === 'is_spam' ? mass[s.message] : undefined) })
    const d = deps(engine)
    const judge = () =>
      judgeRows({ deps: d, ledger: createLedger(1) }, [spam], rows(['a', 'b', 'a', 'c']), { concurrency: 2 })
    for (const outcome of [await judge(), await judge()]) {
      const fit = fitOf(outcome, spam)
      t.match(fit.is_spam, {
        answers: 3,
        known: 3,
        median: 0.2,
        fits: false,
        lowest: [{ option_mass: 0.1 }, { option_mass: 0.2 }, { option_mass: 0.9 }],
      })
      t.match(fit.topic, { answers: 3, known: 0, fits: null }, 'a question given no mass is of unknown fit')
    }
    t.equal(engine.calls.length, 3, 'the second pass read the store')
  },
)

t.test("the model a judgment's answers came from is the one the engine reported, asked answers first", async (t) => {
  let reported = 'jev-1.0'
  const d = deps(createFakeEngine())
  const fake = createFakeEngine()
  const engine = {
    defaultModel: 'jev-latest',
    ask: async (request: EngineRequest) => ({ ...(await fake.ask(request)), model: reported }),
  }
  const alias = { ...d, engine }
  const first = await judgeRows({ deps: alias, ledger: createLedger(1) }, [spam], rows(['a', 'b']), { concurrency: 1 })
  t.equal(reportedModelOf(first.models.get('spam')), 'jev-1.0')
  reported = 'jev-2.0'
  const second = await judgeRows({ deps: alias, ledger: createLedger(1) }, [spam], rows(['a', 'b', 'c']), {
    concurrency: 1,
  })
  t.same([...second.models.get('spam')!.cached], [['jev-1.0', 6]])
  t.same([...second.models.get('spam')!.asked], [['jev-2.0', 3]])
  t.equal(reportedModelOf(second.models.get('spam')), 'jev-2.0', 'what the engine answers under the name today')
  const cached = await judgeRows({ deps: alias, ledger: createLedger(1) }, [spam], rows(['a', 'b', 'a']), {
    concurrency: 1,
  })
  t.equal(
    reportedModelOf(cached.models.get('spam')),
    'jev-1.0',
    'a run that asked nothing reports the model of its answers',
  )
  t.equal(reportedModelOf(undefined), '')
})

t.test(
  'an aborted run is interrupted, whatever its cancelled requests reported, and answers received stay',
  async (t) => {
    const controller = new AbortController()
    const engine = createFakeEngine({ latencyMs: 60_000 })
    const d = deps(createFakeEngine())
    await judgeRows({ deps: d, ledger: createLedger(1) }, withDependencies(project(spam), [spam]), rows(['a']), {
      concurrency: 1,
    })
    const slow = { ...d, engine }
    const judging = judgeRows(
      { deps: slow, ledger: createLedger(1), signal: controller.signal },
      withDependencies(project(spam), [spam]),
      rows(['a', 'b', 'c']),
      { concurrency: 2 },
    )
    while (engine.calls.length < 2) await new Promise((resolve) => setTimeout(resolve, 5))
    controller.abort()
    const outcome = await judging
    t.equal(outcome.error?.message, 'interrupted')
    t.equal(outcome.rows.get('spam'), 1, 'the stored row was judged')
  },
)

t.test('the first error cancels the engine requests still in flight', async (t) => {
  const signals: (AbortSignal | undefined)[] = []
  const engine = createFakeEngine({ latencyMs: 60_000 })
  const failFirst = {
    ...engine,
    ask(request: Parameters<typeof engine.ask>[0], signal?: AbortSignal) {
      signals.push(signal)
      return signals.length === 3 ? Promise.reject(new Error('boom')) : engine.ask(request, signal)
    },
  }
  const outcome = await judgeRows(
    { deps: deps(failFirst), ledger: createLedger(1) },
    withDependencies(project(spam), [spam]),
    rows(['a', 'b', 'c']),
    { concurrency: 3 },
  )
  t.equal(outcome.error?.message, 'boom', "the first error is the outcome's, not the cancellations that followed")
  t.ok(
    signals.every((s) => s?.aborted),
    'the two requests in flight were cancelled',
  )
})

t.test(
  'a state met again reads the store twice at most, however many rows repeat it, and counts every row',
  async (t) => {
    const d = deps(createFakeEngine())
    await judgeRows({ deps: d, ledger: createLedger(1) }, withDependencies(project(spam), [spam]), rows(['a', 'b']), {
      concurrency: 1,
    })
    let reads = 0
    const getAnswers = d.store.getAnswers.bind(d.store)
    d.store.getAnswers = (...args) => {
      reads += 1
      return getAnswers(...args)
    }
    const ledger = createLedger(1)
    const outcome = await judgeRows(
      { deps: d, ledger },
      withDependencies(project(spam), [spam]),
      rows(Array.from({ length: 50 }, (_, i) => (i % 2 ? 'a' : 'b'))),
      { concurrency: 1 },
    )
    t.equal(outcome.error, null)
    t.equal(reads, 4, 'each of the two states read on its first and second row, then remembered')
    t.equal(outcome.rows.get('spam'), 50)
    t.same(
      labelCountsOf(outcome, 'spam', 'r')
        .filter((c) => c.question === 'is_spam')
        .reduce((n, c) => n + c.count, 0),
      50,
    )
    t.match(
      ledger.tally('spam'),
      { cached: 2 * spam.questions.length, duplicates: 48 },
      'the repeats are duplicates of the data, not cache hits',
    )
  },
)

t.test(
  'progress is reported before the first row and after each row is counted, with the outcome itself',
  async (t) => {
    const seen: number[] = []
    let last: unknown = null
    const outcome = await judgeRows(
      { deps: deps(createFakeEngine()), ledger: createLedger(1) },
      withDependencies(project(spam), [spam]),
      rows(['a', 'b', 'a']),
      {
        concurrency: 1,
        onProgress: (now) => {
          seen.push(now.rows.get('spam')!)
          last = now
        },
      },
    )
    t.same(seen, [0, 1, 2, 3])
    t.equal(last, outcome)
  },
)
