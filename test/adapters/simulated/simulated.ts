import t from 'tap'
import { createSimulatedEngine, simulatedModelId } from '../../../src/adapters/simulated/simulated.ts'
import { readDistribution } from '../../../src/core/judge/answer.ts'
import { engineContract, question, QUESTIONS } from '../../helpers/engine-contract.ts'
import { smsMessages } from '../../helpers/sms.ts'

await engineContract(t, 'the simulated engine keeps the Engine contract', {
  working: async () => createSimulatedEngine(),
  failing: { skip: 'the simulated engine asks nobody, so nothing of it can fail' },
})

const engine = createSimulatedEngine()
const ask = (message: string, questions = QUESTIONS, model = engine.defaultModel!) =>
  engine.ask({ model, state: { message }, questions })

t.test("its answers are kept under model ids of its own, never a real model's", async (t) => {
  t.equal(engine.defaultModel, 'simulated-1')
  t.equal(simulatedModelId('jev-1.13.0'), 'simulated-jev-1.13.0')
  t.equal(simulatedModelId('simulated-1'), 'simulated-1')
  t.equal(engine.modelId?.('jev-1.13.0'), 'simulated-jev-1.13.0')
  t.equal((await ask('hi', QUESTIONS, 'jev-1.13.0')).model, 'simulated-jev-1.13.0')
})

t.test('the same state and question always get the same answer; a reworded question may differ', async (t) => {
  const first = await ask('Free entry! Txt WIN to 80082 now')
  t.same((await ask('Free entry! Txt WIN to 80082 now')).distributions, first.distributions)
  const reworded = [question('is_spam', 'yes_no', ['yes', 'no'], [null, null], 'Is it spam?')]
  t.ok((await ask('Free entry! Txt WIN to 80082 now', reworded)).distributions.is_spam.yes >= 0)
})

t.test('the answers follow the text: promotional messages read as spam far more often', async (t) => {
  const messages = smsMessages()
    .slice(0, 300)
    .map((r) => r.message)
  const yes = async (text: string) =>
    readDistribution(QUESTIONS[0], (await ask(text, [QUESTIONS[0]])).distributions.is_spam).label === 'yes'
  const marked = messages.filter((m) => /free|win|prize|txt|call now/i.test(m))
  const plain = messages.filter((m) => !/free|win|prize|txt|call|now|!|£|\d{5}/i.test(m))
  const share = async (list: string[]) => (await Promise.all(list.map(yes))).filter(Boolean).length / list.length
  t.ok((await share(marked)) > 0.5, 'most marked messages are spam')
  t.ok((await share(plain)) < 0.1, 'few plain messages are spam')
})

t.test('every type of question gets a spread of confidence, and a scale leans with the text', async (t) => {
  const messages = smsMessages()
    .slice(0, 200)
    .map((r) => r.message)
  const margins = new Set<number>()
  const tops = new Set<string>()
  for (const m of messages) {
    const { distributions } = await ask(m)
    for (const q of QUESTIONS) {
      const reading = readDistribution(q, distributions[q.name])
      margins.add(Math.round(reading.margin * 10))
      tops.add(`${q.name}:${reading.label}`)
    }
  }
  t.ok(margins.size >= 5, `margins spread over ${margins.size} tenths`)
  t.ok(tops.size >= 6, `labels given: ${[...tops].join(', ')}`)
  const urgency = async (text: string) => (await ask(text, [QUESTIONS[2]])).distributions.urgency
  t.ok(
    (await urgency('URGENT! Call now to claim your £900 prize, txt WIN to 80082!')).high >
      (await urgency('see you at lunch')).high,
  )
})

t.test('it lists its default model, and gives no option mass: it makes up nothing it has not got', async (t) => {
  t.same(
    (await engine.models!()).map((m) => m.name),
    ['simulated-1'],
  )
  t.equal((await ask('WIN a prize')).facts, undefined)
})

t.test('a cancelled request is not answered', async (t) => {
  await t.rejects(engine.ask({ model: 'm', state: { message: 'x' }, questions: QUESTIONS }, AbortSignal.abort()), {
    name: 'EngineError',
    message: /cancelled/,
  })
})
