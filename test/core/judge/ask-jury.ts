import t from 'tap'
import { judgeSpec, storedAnswers } from '../../../src/core/judge/judge-row.ts'
import { modelFor, seatedJurors } from '../../../src/core/judge/deps.ts'
import { createLedger } from '../../../src/core/judge/ledger.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { MIN_REVIEWED } from '../../../src/core/jury/dawid-skene.ts'
import type { Governor } from '../../../src/core/pacing/governor.ts'
import { jurorDeps } from '../../helpers/deps.ts'
import { FAKE_JURY as JURY, saying, sayingJurors as fakes } from '../../helpers/jury-fakes.ts'
import { juryOfThree, spec } from '../../helpers/specs.ts'

const trio = juryOfThree()
const row = (message: string) => ({ row: { message }, where: 'row' })

t.test("a jury's model id names its jurors' models in the spec's order", async (t) => {
  const d = jurorDeps(fakes())
  t.equal(modelFor(trio, d), JURY)
  t.equal(modelFor(trio, d), JURY, 'the same again')
  t.equal(seatedJurors(trio, d), seatedJurors(trio, d), 'seated once per deps')
  t.not(seatedJurors(trio, jurorDeps(fakes())), seatedJurors(trio, d), 'and again for other deps')
  const simulated = { ...fakes().own, modelId: (m: string) => `simulated-${m}` }
  t.equal(
    modelFor(trio, { defaultModel: 'x', engine: simulated }),
    'jury:simulated-jev-a+simulated-gpt-b+simulated-claude-c',
    'without juror engines every juror is asked by the configured engine, under its ids',
  )
  t.equal(modelFor(trio, { defaultModel: 'x' }), JURY, 'without an engine, under the models named')
  t.same(seatedJurors(spec(), { defaultModel: 'x' }), [], 'a spec of one model seats no juror')
})

t.test('each juror is asked once, its answers kept under its model; the vote kept under the jury id', async (t) => {
  const engines = fakes()
  const d = jurorDeps(engines)
  const ledger = createLedger(1)
  const result = await judgeSpec({ deps: d, ledger }, trio, row('WIN now'))
  for (const [kind, model] of [
    ['own', 'jev-a'],
    ['openai', 'gpt-b'],
    ['anthropic', 'claude-c'],
  ] as const) {
    const calls = (engines[kind] as ReturnType<typeof saying>).calls
    t.equal(calls.length, 1, `${model} asked once`)
    t.equal(calls[0].model, model)
    t.same(
      calls[0].questions.map((q) => q.name),
      ['is_spam', 'topic'],
    )
  }
  const hash = stateHash({ message: 'WIN now' })
  const fps = trio.questions.map((q) => q.fingerprint)
  t.equal(d.store.getAnswers('claude-c', hash, fps).get(fps[0])?.label, 'no', "claude-c's own answer is kept")
  const jury = d.store.getAnswers(JURY, hash, fps)
  t.match(jury.get(fps[0]), { label: 'yes', source: 'vote', dissent: 1, reportedModel: JURY, judgment: 'trio' })
  t.same(jury.get(fps[0])?.distribution, { yes: 2 / 3, no: 1 / 3 })
  t.match(jury.get(fps[1]), { label: 'promotion', source: 'vote', dissent: 0, p: 1 })
  t.equal(result.model, JURY)
  t.match(result.answers.is_spam, { label: 'yes', cached: false, p_source: 'vote' })
  t.match(ledger.tally('trio'), { asked: 2, cached: 0, requests: 3 })
  const costs = [engines.own, engines.openai, engines.anthropic].map((e) => e.calls.length)
  t.same(costs, [1, 1, 1])
  t.ok(ledger.tally('trio').cost > 0, 'the jurors requests are costed')

  const again = await judgeSpec({ deps: d, ledger: createLedger(1) }, trio, row('WIN now'))
  t.same(
    [engines.own, engines.openai, engines.anthropic].map((e) => e.calls.length),
    [1, 1, 1],
    'a second judgment asks nothing',
  )
  t.equal(again.answers.is_spam.cached, true)
  t.not(storedAnswers(d, [trio], row('WIN now')), null, "the probe finds the jury's answers")
  t.equal(storedAnswers(d, [trio], row('another')), null, 'and none for a row the jury has not answered')

  const alone = spec(
    'state: [message]\nmodel: claude-c\nquestions:\n  is_spam:\n    ask: Is this message spam?\n    type: yes_no\n',
    '/specs/alone.judge.yaml',
  )
  const ledgerAlone = createLedger(1)
  const single = await judgeSpec({ deps: d, ledger: ledgerAlone }, alone, row('WIN now'))
  t.match(single.answers.is_spam, { label: 'no', cached: true }, "a spec naming a juror's model gets its answers")
  t.equal(engines.own.calls.length, 1)
})

t.test('a juror that has the answer already is not asked; nothing asked counts as from the store', async (t) => {
  const engines = fakes()
  const d = jurorDeps(engines)
  const alone = spec(
    'state: [message]\nmodel: gpt-b\nquestions:\n  is_spam:\n    ask: Is this message spam?\n    type: yes_no\n',
    '/specs/alone.judge.yaml',
  )
  await judgeSpec({ deps: { ...d, engine: engines.openai }, ledger: createLedger(1) }, alone, row('hi'))
  t.equal(engines.openai.calls.length, 1)
  const ledger = createLedger(1)
  await judgeSpec({ deps: d, ledger }, trio, row('hi'))
  t.same(
    engines.openai.calls[1].questions.map((q) => q.name),
    ['topic'],
    'gpt-b is asked only the question it lacks',
  )
  // Every juror now has every answer: the jury's answers, once pruned, are made again without asking.
  const fps = trio.questions.map((q) => q.fingerprint)
  for (const q of trio.questions)
    d.store.deleteAnswers({ judgment: 'trio', question: q.name, model: JURY, fingerprint: q.fingerprint })
  const calls = () => [engines.own, engines.openai, engines.anthropic].map((e) => e.calls.length)
  const before = calls()
  const remade = createLedger(1)
  const again = await judgeSpec({ deps: d, ledger: remade }, trio, row('hi'))
  t.same(calls(), before, 'no engine is asked')
  t.equal(d.store.getAnswers(JURY, stateHash({ message: 'hi' }), fps).size, 2, "the jury's answers are back")
  t.match(again.answers.is_spam, { label: 'yes', cached: true })
  t.match(remade.tally('trio'), { asked: 0, cached: 2, requests: 0, cost: 0 })
})

t.test('a juror without a key cannot be asked: the judgment says so', async (t) => {
  const engines = fakes()
  const d = jurorDeps(engines, undefined, {
    jurorEngine: (j) =>
      j.engine === 'anthropic'
        ? { engine: null, pricePerMtok: 0, unset: 'ENGINE_ANTHROPIC_API_KEY' }
        : { engine: engines.own, pricePerMtok: 0 },
  })
  await t.rejects(judgeSpec({ deps: d, ledger: createLedger(1) }, trio, row('x')), {
    name: 'MissingKeyError',
    message:
      'judgment trio: the store lacks answers for this row and ENGINE_ANTHROPIC_API_KEY is not set; nothing was asked',
  })
})

t.test("a juror's request counts against the judgment's cost cap", async (t) => {
  const d = jurorDeps(fakes())
  await t.rejects(judgeSpec({ deps: d, ledger: createLedger(0.0001) }, trio, row('x')), { name: 'CostCapError' })
})

t.test(`after ${MIN_REVIEWED} reviewed rows the jury weighs its jurors: new answers have source jury`, async (t) => {
  // claude-c says yes on even rows only; people agree with it, the others always say yes.
  const engines = fakes((m) => (Number(m.slice(4)) % 2 === 0 ? 'yes' : 'no'))
  const rows = Array.from({ length: MIN_REVIEWED + 4 }, (_, i) => `row ${i}`)
  const isSpam = trio.questions[0]
  const reviewed = new Map(
    rows.slice(0, MIN_REVIEWED).map((m, i) => [stateHash({ message: m }), i % 2 === 0 ? 'yes' : 'no']),
  )
  let reads = 0
  let reviewing = false
  const d = jurorDeps(engines, undefined, {
    reviewedLabels: async (s) => {
      reads++
      t.equal(s.name, 'trio')
      return reviewing ? new Map([[isSpam.name, reviewed]]) : new Map()
    },
  })
  const first = createLedger(1)
  for (const m of rows.slice(0, MIN_REVIEWED)) await judgeSpec({ deps: d, ledger: first }, trio, row(m))
  t.equal(reads, 1, "people's labels are read once per judging operation")
  const hash = (m: string) => stateHash({ message: m })
  const earlier = d.store.getAnswers(JURY, hash('row 1'), [isSpam.fingerprint]).get(isSpam.fingerprint)
  t.match(earlier, { source: 'vote', label: 'yes', dissent: 1 })
  reviewing = true
  const later = createLedger(1)
  await judgeSpec({ deps: d, ledger: later }, trio, row(`row ${MIN_REVIEWED + 1}`))
  const weighed = d.store.getAnswers(JURY, hash(`row ${MIN_REVIEWED + 1}`), [isSpam.fingerprint])
  t.match(
    weighed.get(isSpam.fingerprint),
    { source: 'jury', label: 'no', dissent: 2 },
    'the juror people agree with wins',
  )
  const stands = d.store.getAnswers(JURY, hash('row 1'), [isSpam.fingerprint]).get(isSpam.fingerprint)
  t.same(stands, earlier, "a jury's answer once stored stands")
})

t.test("each juror's requests go through its engine's governor; a juror on the configured engine, its", async (t) => {
  const engines = fakes()
  const through: string[] = []
  const governor = (name: string): Governor => ({
    ask: (engine, request, _patience, signal) => {
      through.push(`${name} ${request.model}`)
      return engine.ask(request, signal)
    },
    status: () => {
      throw new Error('not read')
    },
  })
  const own = governor('own')
  const d = jurorDeps(engines, undefined, {
    governor: own,
    jurorEngine: (j) =>
      j.engine === 'openai'
        ? { engine: engines.openai, pricePerMtok: 1, governor: governor('openai') }
        : { engine: engines.anthropic, pricePerMtok: 2 },
  })
  await judgeSpec({ deps: d, ledger: createLedger(1) }, trio, row('paced'))
  t.same(through.sort(), ['openai gpt-b', 'own jev-a'], 'claude-c, whose engine has none, is asked directly')
  t.equal(engines.anthropic.calls.length, 1)
})

t.test('deps that cannot ask a jury say so for a jury spec', async (t) => {
  const { askJury: _, ...rest } = jurorDeps(fakes())
  await t.rejects(judgeSpec({ deps: rest, ledger: createLedger(1) }, trio, row('x')), {
    name: 'InternalError',
    message: 'judgment trio names a jury, which these deps cannot ask',
  })
})

t.test("a spec's samples: go with each juror's request; without it, none is asked for", async (t) => {
  const sampled = fakes()
  await judgeSpec({ deps: jurorDeps(sampled), ledger: createLedger(1) }, { ...trio, samples: 3 }, row('k'))
  t.same(
    [sampled.own, sampled.openai, sampled.anthropic].map((e) => e.calls[0].samples),
    [3, 3, 3],
  )
  const plain = fakes()
  await judgeSpec({ deps: jurorDeps(plain), ledger: createLedger(1) }, trio, row('k'))
  t.same(
    [plain.own, plain.openai, plain.anthropic].map((e) => 'samples' in e.calls[0]),
    [false, false, false],
  )
})
