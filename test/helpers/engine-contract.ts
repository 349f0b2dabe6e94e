import type { Test } from 'tap'
import { questionFingerprint } from '../../src/core/spec/fingerprint.ts'
import type { Question, QuestionType } from '../../src/core/types.ts'
import { EngineError } from '../../src/errors.ts'
import type { Engine } from '../../src/ports/engine.ts'

/** A question as the spec loader makes it, with its fingerprint. */
export function question(
  name: string,
  type: QuestionType,
  labels: readonly string[],
  descriptions: readonly (string | null)[] = labels.map(() => null),
  ask = `What about ${name}?`,
): Question {
  return { name, ask, type, labels, descriptions, fingerprint: questionFingerprint(type, ask, labels, descriptions) }
}

/** One question of each type, as the `spam` example asks them. */
export const QUESTIONS: readonly Question[] = [
  question('is_spam', 'yes_no', ['yes', 'no'], ['Unsolicited advertising or a scam', null]),
  question('topic', 'choice', ['personal', 'promotion', 'service'], ['Chat between people', null, 'Notices']),
  question('urgency', 'scale', ['low', 'medium', 'high']),
]

/** Engines for the contract: a working one, and one whose every request fails (or why there is none). */
export interface EngineMakers {
  readonly working: (t: Test) => Promise<Engine>
  readonly failing: ((t: Test) => Promise<Engine>) | { readonly skip: string }
}

/** Runs the behaviour the core relies on from every Engine. */
export function engineContract(t: Test, name: string, make: EngineMakers): Promise<unknown> {
  return t.test(name, async (t) => {
    const ask = (engine: Engine, questions: readonly Question[], signal?: AbortSignal) =>
      engine.ask({ model: engine.defaultModel ?? 'the-model', state: { message: 'WIN A PRIZE' }, questions }, signal)

    t.test('it names a default model', async (t) => {
      const engine = await make.working(t)
      t.match(engine.defaultModel, /\S/)
    })

    t.test('it answers every question with a distribution over exactly its labels', async (t) => {
      const engine = await make.working(t)
      const result = await ask(engine, QUESTIONS)
      t.same(Object.keys(result.distributions).sort(), ['is_spam', 'topic', 'urgency'])
      for (const q of QUESTIONS) {
        const distribution = result.distributions[q.name]
        t.same(Object.keys(distribution).sort(), [...q.labels].sort(), `${q.name} is keyed by its labels`)
        const total = Object.values(distribution).reduce((sum, p) => sum + p, 0)
        t.ok(
          Object.values(distribution).every((p) => p >= 0 && p <= 1),
          `${q.name} has probabilities`,
        )
        t.ok(Math.abs(total - 1) < 0.06, `${q.name} sums to about 1 (${total})`)
      }
      t.match(result.model, /\S/)
      t.ok(Number.isInteger(result.inputTokens) && result.inputTokens > 0, 'input tokens are counted')
      t.ok(Number.isInteger(result.outputTokens) && result.outputTokens >= 0, 'output tokens are counted')
    })

    t.test('it answers only the questions asked', async (t) => {
      const engine = await make.working(t)
      const result = await ask(engine, [QUESTIONS[1]])
      t.same(Object.keys(result.distributions), ['topic'])
    })

    t.test('its list of models, when it keeps one, names each model', async (t) => {
      const engine = await make.working(t)
      if (!engine.models) return t.pass('an engine without a list')
      const models = await engine.models()
      t.ok(models.length > 0, 'at least one model')
      const textOrNull = (value: unknown) => value === null || (typeof value === 'string' && value !== '')
      for (const m of models)
        t.ok(
          /\S/.test(m.name) && textOrNull(m.description) && textOrNull(m.releaseDate),
          `${m.name}: a name, and text or null`,
        )
    })

    const failing = make.failing
    t.test('a failure rejects with an EngineError', { skip: 'skip' in failing ? failing.skip : false }, async (t) => {
      if ('skip' in failing) return
      const engine = await failing(t)
      await t.rejects(ask(engine, QUESTIONS), EngineError)
    })

    t.test('a request cancelled by the caller rejects with an EngineError', async (t) => {
      const engine = await make.working(t)
      const signal = AbortSignal.abort(new Error('shutting down'))
      await t.rejects(ask(engine, QUESTIONS, signal), { name: 'EngineError', message: /cancelled/ })
    })
  })
}
