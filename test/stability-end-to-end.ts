import t, { type Test } from 'tap'
import { stringify } from 'csv-stringify/sync'
import { seededRandom } from '../src/core/stats/seeded-random.ts'
import { cli } from './helpers/cli.ts'
import { unsteady } from './helpers/noisy-answers.ts'
import { simulatedAnswers } from './helpers/simulated-model.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'

// The Done-when of `judge stability`, end to end: the local System One engine, whose answers flip
// with probability FLIP on a SHARE of states (test/helpers/noisy-answers.ts), judges ROWS new rows
// with `judge run`; `judge stability --json` then asks a sample of them again through the CLI. The
// true flip rate of a check's rows is (unsteady rows whose answer is not a tie / ROWS) ·
// 2·FLIP·(1 − FLIP). `npm run test:slow` (JUDGE_SLOW=1) repeats it 200 times and asks the 95%
// interval to cover the truth in at least 93% of them; `npm test` 5 times, seeded and one request
// at a time (so the same every time), and asks for every one. Run alone to see the figures
// docs/engine.md quotes:  JUDGE_SLOW=1 node test/stability-end-to-end.ts

const SLOW = process.env.JUDGE_SLOW === '1'
const CHECKS = SLOW ? 200 : 5
const MIN_COVERAGE = SLOW ? 0.93 : 1
const ROWS = 300
const SAMPLE = '100'
const SHARE = 0.3
const FLIP = 0.3

const SPEC = `name: spam
state: [message]
questions:
  is_spam: {ask: Is this message unsolicited advertising or a scam?, type: yes_no}
`

async function check(t: Test, seed: number, noisy: boolean) {
  const messages = Array.from({ length: ROWS }, (_, i) => `check ${seed} row ${i}: call now`)
  const dir = t.testdir({ 'spam.judge.yaml': SPEC, 'rows.csv': stringify([['message'], ...messages.map((m) => [m])]) })
  const engine = await startSystemOneServer({
    expectKey: 'k',
    ...(noisy ? { noise: { share: SHARE, flip: FLIP, random: seededRandom(seed) } } : {}),
  })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  const run = await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv', '--concurrency', '1'], env, dir)
  if (run.code !== 0) throw new Error(run.stderr)
  const affected = engine.answered.filter(
    (r) =>
      noisy && unsteady(r.body.state, SHARE) && (simulatedAnswers(r.body).is_spam as { noul: number }).noul !== 0.5,
  ).length
  const result = await cli(
    ['stability', 'spam.judge.yaml', '--sample', SAMPLE, '--concurrency', '1', '--json'],
    env,
    dir,
  )
  if (result.code !== 0) throw new Error(result.stderr)
  const figures = JSON.parse(result.stdout).spam.questions.is_spam
  return {
    flip: figures.flip_rate as { point: number; interval: [number, number] },
    truth: (affected / ROWS) * 2 * FLIP * (1 - FLIP),
  }
}

t.test(
  `against a noisy local engine, the flip rate's 95% interval covers the true rate in at least ${MIN_COVERAGE * 100}% of ${CHECKS} checks`,
  async (t) => {
    let covered = 0
    let width = 0
    let truth = 0
    let point = 0
    for (let i = 0; i < CHECKS; i++) {
      await t.test(`check ${i}`, async (t) => {
        const outcome = await check(t, 3800 + i, true)
        if (outcome.flip.interval[0] <= outcome.truth && outcome.truth <= outcome.flip.interval[1]) covered++
        width += outcome.flip.interval[1] - outcome.flip.interval[0]
        truth += outcome.truth
        point += outcome.flip.point
        t.pass(
          `true ${outcome.truth.toFixed(4)}, estimated ${outcome.flip.point.toFixed(4)} (${outcome.flip.interval.map((x) => x.toFixed(4)).join(' to ')})`,
        )
      })
    }
    t.comment(
      `share ${SHARE}, flip ${FLIP}: mean true flip rate ${(truth / CHECKS).toFixed(4)}, mean estimate ${(point / CHECKS).toFixed(4)}, ` +
        `coverage ${((100 * covered) / CHECKS).toFixed(1)}%, mean width ${(width / CHECKS).toFixed(4)}`,
    )
    t.ok(covered / CHECKS >= MIN_COVERAGE, `covered in ${covered} of ${CHECKS} checks`)
  },
)

t.test('against the local engine without noise, the flip rate is 0', async (t) => {
  const outcome = await check(t, 1, false)
  t.equal(outcome.flip.point, 0)
  t.equal(outcome.truth, 0)
})
