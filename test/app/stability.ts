import t from 'tap'
import { checkStability } from '../../src/app/stability.ts'
import { latestStability } from '../../src/app/stability-latest.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import { app, deps } from '../helpers/deps.ts'
import { createFakeEngine } from '../helpers/fake-engine.ts'
import { hashOf } from '../helpers/spam-answers.ts'
import { project, spec, SPAM_YAML } from '../helpers/specs.ts'
import { juryProject, jurySpec, juryStore } from '../helpers/jury-project.ts'

const SPAM = spec(SPAM_YAML.replace('name: spam', 'name: spam\nmodel: m'))
const IS_SPAM = SPAM.questions[0]

/**
 * A store holding is_spam answers for `n` messages: every third unsure (p 0.55), the rest confident (p 0.9); with
 * `over`, each answer's fields overridden (its source, samples).
 */
function stored(n: number, over: (i: number) => Partial<StoredAnswer> = () => ({})) {
  const store = createMemoryStore()
  for (let i = 0; i < n; i++) {
    const yes = i % 3 === 0 ? 0.55 : 0.9
    store.putAnswers(
      [
        {
          model: 'm',
          fingerprint: IS_SPAM.fingerprint,
          stateHash: hashOf(`m${i}`),
          judgment: 'spam',
          question: 'is_spam',
          distribution: { yes, no: Math.round((1 - yes) * 100) / 100 },
          label: 'yes',
          p: yes,
          margin: Math.round((2 * yes - 1) * 100) / 100,
          askedAt: '2026-01-01T00:00:00.000',
          ...over(i),
        },
      ],
      hashOf(`m${i}`),
      { message: `m${i}` },
    )
  }
  return store
}

t.test(
  'a check asks each drawn state once with its drawn questions, keeps the re-asks apart, and weighs the strata back',
  async (t) => {
    // Every answer comes back "no": all stored "yes" labels flip.
    const engine = createFakeEngine({ answer: () => ({ yes: 0.4, no: 0.6 }) })
    const d = deps(engine, stored(30))
    const [result] = await checkStability(app(d), { project: project(SPAM), sample: 10, cap: 1 })
    t.match(result, {
      judgment: 'spam',
      model: 'm',
      check: '2026-11-22T10:00:00.000',
      states: 10,
      skipped: 0,
      requests: 10,
    })
    t.same(
      engine.calls.map((c) => c.questions.map((q) => q.name)),
      Array(10).fill(['is_spam']),
      'only the question drawn, one request per state',
    )
    const s = result.questions.is_spam!
    t.same(s.strata, [
      { stratum: 'split', size: 0, reasked: 0, flips: 0, from_samples: 0 },
      { stratum: 'unsure', size: 10, reasked: 5, flips: 5, from_samples: 0 },
      { stratum: 'confident', size: 20, reasked: 5, flips: 5, from_samples: 0 },
    ])
    t.equal(s.flip_rate!.point, 1)
    t.equal(result.questions.topic, null, 'a question without stored answers has no figures')
    t.equal(d.store.countAnswers('m', IS_SPAM.fingerprint), 30)
    t.equal(
      d.store.getAnswers('m', hashOf('m0'), [IS_SPAM.fingerprint]).get(IS_SPAM.fingerprint)?.label,
      'yes',
      'the cached answer stands',
    )
    t.same(
      latestStability(app(d), project(SPAM), SPAM)?.is_spam,
      s,
      "the latest figures, read back from the store, are the check's",
    )
  },
)

t.test('states whose values were forgotten are drawn but not asked, and said so', async (t) => {
  const engine = createFakeEngine()
  const store = stored(6)
  store.forget({ values: [hashOf('m1'), hashOf('m2')], records: [] }, { at: '2026-01-02T00:00:00', command: 'test' })
  const [result] = await checkStability(app(deps(engine, store)), {
    project: project(SPAM),
    sample: 10,
    cap: 1,
    concurrency: 2,
  })
  t.match(result, { states: 4, skipped: 2, requests: 4 })
  t.ok(engine.maxInFlight <= 2)
})

t.test(
  'nothing is asked above the cap, or without an engine key, and a project without a store has no figures',
  async (t) => {
    const engine = createFakeEngine()
    await t.rejects(checkStability(app(deps(engine, stored(6))), { project: project(SPAM), cap: 0 }), {
      name: 'CostCapError',
      judgment: 'spam',
    })
    t.equal(engine.calls.length, 0)
    await t.rejects(checkStability(app(deps(null, stored(6))), { project: project(SPAM), cap: 1 }), {
      name: 'MissingKeyError',
    })
    const none = app(deps(engine, stored(0)))
    t.same(await checkStability(none, { project: project(SPAM), cap: 0 }), [
      {
        judgment: 'spam',
        model: 'm',
        check: '2026-11-22T10:00:00.000',
        states: 0,
        skipped: 0,
        fromSamples: 0,
        requests: 0,
        cost: 0,
        questions: { is_spam: null, topic: null, urgency: null },
      },
    ])
    t.equal(latestStability(none, project(SPAM), SPAM), null, 'never checked')
    t.equal(latestStability({ ...none, existingStore: () => null }, project(SPAM), SPAM), null, 'no store')
  },
)

t.test("a check goes through the store's governor with a run's patience", async (t) => {
  const engine = createFakeEngine()
  const asked: string[] = []
  const d = {
    ...deps(engine, stored(4)),
    governor: {
      ask: (e: typeof engine, r: Parameters<typeof engine.ask>[0], patience: string) => (
        asked.push(patience), e.ask(r)
      ),
      status: () => {
        throw new Error('unused')
      },
    },
  }
  await checkStability(app(d), { project: project(SPAM), cap: 1 })
  t.same(asked, ['run', 'run', 'run', 'run'])
})

t.test('answers whose p is the share of k samples are read from their draws: nothing is asked', async (t) => {
  const engine = createFakeEngine({ answer: () => ({ yes: 0.4, no: 0.6 }) })
  // k = 20: 11 of 20 draws named yes (p 0.55) for the unsure answers, 18 of 20 (p 0.9) for the confident ones.
  const d = deps(
    engine,
    stored(30, () => ({ source: 'samples', samples: 20 })),
  )
  const [result] = await checkStability(app(d), { project: project(SPAM), sample: 10, cap: 0 })
  t.equal(engine.calls.length, 0, 'no request, and so no cost against a cap of 0')
  t.match(result, { states: 0, requests: 0, cost: 0, fromSamples: 10 })
  const s = result.questions.is_spam!
  t.same(
    s.strata.map((h) => [h.stratum, h.reasked, h.flips, h.from_samples]),
    [
      ['split', 0, 0, 0],
      ['unsure', 5, 0, 5],
      ['confident', 5, 0, 5],
    ],
  )
  // The chance a fresh draw names another label is 1 - p, weighed by the strata: (10 x 0.45 + 20 x 0.1) / 30.
  t.ok(Math.abs(s.flip_rate!.point - (10 * 0.45 + 20 * 0.1) / 30) < 1e-9, `flip rate ${s.flip_rate!.point}`)
  t.ok(s.p_jitter!.point > 0, 'the share moves between samples of 20')
  t.same(latestStability(app(d), project(SPAM), SPAM)?.is_spam, s, 'kept as re-asks, read back the same')
})

t.test('of a store of sampled and other answers, only the others are asked again', async (t) => {
  const engine = createFakeEngine({ answer: () => ({ yes: 0.55, no: 0.45 }) })
  const d = deps(
    engine,
    stored(30, (i) => (i % 2 === 0 ? { source: 'samples', samples: 20 } : {})),
  )
  const [result] = await checkStability(app(d), { project: project(SPAM), sample: 30, cap: 1 })
  t.equal(result.fromSamples, 15, 'every even message is sampled')
  t.equal(engine.calls.length, 15, 'the odd ones are asked')
  t.equal(result.states, 15)
  t.same(engine.calls.map((c) => c.state.message).sort(), Array.from({ length: 15 }, (_, i) => `m${2 * i + 1}`).sort())
  const s = result.questions.is_spam!
  t.equal(s.reasked, 30)
  t.same(
    s.strata.map((h) => h.from_samples),
    [0, 5, 10],
  )
})

t.test('a jury is refused before anything is asked: its id is never sent to an engine', async (t) => {
  const engine = createFakeEngine()
  const d = deps(engine, juryStore())
  await t.rejects(checkStability(app(d), { project: juryProject, sample: 10, cap: 1 }), {
    name: 'UsageError',
    message:
      /judgment spam names a jury \(models:\).*measure each juror's with a spec that names it alone \(model: a\)/,
  })
  t.equal(engine.calls.length, 0)
  t.same(d.store.latestReasks('jury:a+oa-b+c', jurySpec.questions[0].fingerprint), [], 'nothing kept')
})
