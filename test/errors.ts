import t from 'tap'
import {
  CostCapError,
  EngineError,
  JudgeError,
  ListenError,
  MethodNotAllowedError,
  MissingKeyError,
  NodeNeededError,
  RetryLaterError,
  SpecError,
  UsageError,
} from '../src/errors.ts'

t.test('each error carries its HTTP status, exit status and a literal name', async (t) => {
  t.match(new UsageError('x'), { status: 400, exitCode: 2, name: 'UsageError' })
  t.match(new SpecError('/a/s.judge.yaml', 'questions.q', 'is wrong'), {
    status: 422,
    exitCode: 2,
    message: '/a/s.judge.yaml: questions.q: is wrong',
    keyPath: 'questions.q',
  })
  t.equal(new SpecError('/a/s.judge.yaml', '', 'is empty').message, '/a/s.judge.yaml: is empty')
  t.match(new MissingKeyError('spam'), { status: 503, exitCode: 2, message: /ENGINE_API_KEY/ })
  t.match(new EngineError('engine answered 500', 500), { status: 502, exitCode: 1, engineStatus: 500 })
  t.match(new MethodNotAllowedError('no', ['GET']), { status: 405, allow: ['GET'] })
  t.ok(new UsageError('x') instanceof JudgeError)
})

t.test('the cost cap message names the judgment, counts, estimate and cap, and says nothing was asked', async (t) => {
  t.equal(
    new CostCapError('spam', 1, 1, 0.0123, 0.01).message,
    'judgment spam: asking 1 answer in 1 request would cost an estimated $0.0123, above the cap of $0.01; nothing was asked',
  )
  t.equal(
    new CostCapError('spam', 3, 1, 0.000015, 0.0000001).message,
    'judgment spam: asking 3 answers in 1 request would cost an estimated $0.000015, above the cap of $0.0000001; nothing was asked',
  )
})

t.test('a folder that needs a judgment named says so, and a listen failure exits 2', async (t) => {
  t.match(new NodeNeededError('this folder holds 2 judgments'), {
    status: 400,
    exitCode: 2,
    name: 'NodeNeededError',
    problem: 'this folder holds 2 judgments',
  })
  t.ok(new NodeNeededError('x') instanceof JudgeError)
  t.match(new ListenError('cannot listen'), { exitCode: 2, name: 'ListenError' })
})

t.test('an engine error says whether asking again may help, and any wait the engine asked for', async (t) => {
  for (const status of [400, 429, 500, null])
    t.equal(new EngineError('x', status).transient, false, `${status}: not unless the adapter says so`)
  t.equal(new EngineError('x', 503, { transient: true }).transient, true)
  t.match(new EngineError('down', null, { transient: true, retryAfterMs: 2000 }), {
    transient: true,
    retryAfterMs: 2000,
    context: { engineStatus: null },
  })
  t.equal(new EngineError('x', 500).retryAfterMs, null)
})

t.test('asking later is a 503 that says when', async (t) => {
  t.match(new RetryLaterError('wait', 7), {
    status: 503,
    exitCode: 1,
    name: 'RetryLaterError',
    retryAfterS: 7,
    context: { retryAfterS: 7 },
  })
})
