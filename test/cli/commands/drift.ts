import t, { type Test } from 'tap'
import { cli } from '../../helpers/cli.ts'
import { startSystemOneServer } from '../../helpers/system-one-server.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'

/** Two runs of spam: is_spam moves from 10% to 50% yes; topic and urgency have no counts. */
function seeded(t: Test) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  const runs = seedRuns(dir, [
    { judgment: 'spam', counts: { is_spam: { yes: 1, no: 9 } } },
    { judgment: 'spam', counts: { is_spam: { yes: 5, no: 5 } } },
  ])
  return { dir, runs }
}

t.test(
  '--json gives each question its runs oldest first, the first change null, an alert above the line',
  async (t) => {
    const { dir, runs } = seeded(t)
    const result = await cli(['drift', '.', '--node', 'spam', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    const drift = JSON.parse(result.stdout)
    t.same(Object.keys(drift), ['is_spam', 'topic', 'urgency'])
    t.same(drift.is_spam, [
      {
        run_id: runs[0].run_id,
        rows: 10,
        shares: { yes: 0.1, no: 0.9 },
        change: null,
        alert: false,
        p_value: null,
        significant: false,
        same_data: null,
        other_data: null,
      },
      // 1 of 10 then 5 of 10: an alert, but two runs of one mix differ so much 15% of the time.
      {
        run_id: runs[1].run_id,
        rows: 10,
        shares: { yes: 0.5, no: 0.5 },
        change: 0.4,
        alert: true,
        p_value: 0.15292353823088456,
        significant: false,
        same_data: {
          baseline: runs[0].run_id,
          source: 'data.csv',
          change: 0.4,
          alert: true,
          p_value: 0.15292353823088456,
          significant: false,
        },
        other_data: null,
      },
    ])
    t.same(drift.topic, [])
  },
)

t.test('--every-run shows a table per question, flags an alert, and says when a question has no runs', async (t) => {
  const { dir, runs } = seeded(t)
  const { stdout } = await cli(['drift', 'spam.judge.yaml', '--every-run'], {}, dir)
  t.match(
    stdout,
    new RegExp(
      `^spam\\.is_spam: every run against the previous one\\n  run\\s+rows\\s+change\\s+label mix\\n  ${runs[0].run_id}\\s+10\\s+-\\s+no 90\\.0%\\s+yes 10\\.0%\\n  ${runs[1].run_id}\\s+10\\s+0\\.400\\s+ALERT\\s+(yes|no) 50\\.0%`,
    ),
  )
  t.match(
    stdout,
    /\nspam\.topic: every run against the previous one\n  no runs yet\nspam\.urgency: every run against the previous one\n  no runs yet\n$/,
  )
})

t.test('a judgment without runs says so', async (t) => {
  const { dir } = seeded(t)
  t.match(await cli(['drift', 'tone.judge.yaml'], {}, dir), { code: 0, stdout: 'tone: no runs yet\n' })
  t.match(await cli(['drift', 'tone.judge.yaml', '--every-run'], {}, dir), {
    code: 0,
    stdout: 'tone.tone: every run against the previous one\n  no runs yet\n',
  })
})

t.test(
  'by default each series of like runs has its table per question, each run against the previous complete one of its series',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    const runs = seedRuns(dir, [
      { judgment: 'spam', counts: { is_spam: { yes: 1, no: 9 } } },
      { judgment: 'spam', counts: { is_spam: { yes: 5, no: 5 } }, source: 'later.csv' },
      { judgment: 'spam', counts: { is_spam: { yes: 9, no: 1 } }, status: 'failed: interrupted' },
      { judgment: 'spam', counts: { is_spam: { yes: 1, no: 9 } } },
      { judgment: 'spam', counts: { is_spam: { yes: 2, no: 8 } }, model: 'jev-2' },
    ])
    const { stdout } = await cli(['drift', 'spam.judge.yaml'], {}, dir)
    const [data, later] = stdout.split(/\n(?=spam: )/)
    t.match(
      data,
      /^spam: `run` of data\.csv\n  is_spam\n    run\s+status\s+rows\s+model\s+same data vs\s+change\s+model part\s+data part\s+other data vs\s+change\s+label mix\n/,
    )
    t.match(
      data,
      new RegExp(
        `\\n    ${runs[2].run_id}\\s+failed\\s+10\\s+jev-1\\.13\\.0\\s+${runs[0].run_id}\\s+0\\.800\\s+0\\.000`,
      ),
      'a failed run: compared, no alert',
    )
    t.match(
      data,
      new RegExp(
        `\\n    ${runs[3].run_id}\\s+complete\\s+10\\s+jev-1\\.13\\.0\\s+${runs[0].run_id}\\s+0\\.000\\s+0\\.000\\s+0\\.000`,
      ),
      'never against the failed one',
    )
    t.match(
      data,
      new RegExp(`\\n    ${runs[4].run_id}\\s+complete\\s+10\\s+jev-2\\s+${runs[3].run_id}\\s+0\\.100\\s+\\?\\s+-`),
      'another model without a check: its part unmeasured',
    )
    t.notMatch(data, /ALERT/)
    t.match(later, /^spam: `run` of later\.csv\n  is_spam\n/)
    const json = JSON.parse(
      (await cli(['drift', 'spam.judge.yaml', '--json', '--source', 'later.csv'], {}, dir)).stdout,
    )
    t.same(
      json.is_spam.map((e: { run_id: string }) => e.run_id),
      [runs[1].run_id],
    )
    const completed = JSON.parse(
      (await cli(['drift', 'spam.judge.yaml', '--json', '--command', 'run', '--completed'], {}, dir)).stdout,
    )
    t.same(
      completed.is_spam.map((e: { run_id: string }) => e.run_id),
      [runs[0].run_id, runs[1].run_id, runs[3].run_id, runs[4].run_id],
    )
  },
)

const SPAM_ONLY = 'name: spam\nstate: [message]\nquestions:\n  is_spam: {ask: Spam?, type: yes_no}\n'

/** A data file of ten messages, the first `spam` of them spam, each row `times` times over. */
const tenRows = (spam: number, times: number) =>
  'message\n' + Array.from({ length: 10 }, (_, i) => `${i < spam ? 'spam' : 'hello'} ${i}\n`.repeat(times)).join('')

/** `judge run` over before.csv then after.csv with an engine that calls "spam …" spam, then `judge drift --json`'s last entry. */
async function driftOfFiles(t: Test, times: number) {
  const dir = t.testdir({
    'spam.judge.yaml': SPAM_ONLY,
    'before.csv': tenRows(1, times),
    'after.csv': tenRows(4, times),
  })
  const engine = await startSystemOneServer({
    answer: (body) => ({
      is_spam: { type: 'noul', noul: String(body.state.message).startsWith('spam') ? 0.97 : 0.03 },
    }),
  })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  for (const data of ['before.csv', 'after.csv'])
    t.equal((await cli(['run', 'spam.judge.yaml', '--data', data], env, dir)).code, 0)
  const json = await cli(['drift', 'spam.judge.yaml', '--json'], {}, dir)
  t.equal(json.code, 0, json.stderr)
  return { entry: JSON.parse(json.stdout).is_spam[1] }
}

t.test(
  'two 10-row files, 1 spam then 4, are within noise; every row repeated ten times gives the same p value, end to end',
  async (t) => {
    const once = await driftOfFiles(t, 1)
    const tenfold = await driftOfFiles(t, 10)
    t.match(once.entry, { rows: 10, shares: { yes: 0.4, no: 0.6 }, change: 0.3, alert: true, significant: false })
    t.ok(Math.abs(once.entry.p_value - 0.31) < 0.02, `p ${once.entry.p_value}`)
    t.match(tenfold.entry, { rows: 100, shares: { yes: 0.4, no: 0.6 }, change: 0.3, alert: true, significant: false })
    t.equal(tenfold.entry.p_value, once.entry.p_value, 'the same twenty answers, the same evidence')
  },
)

t.test(
  'judge drift --json gives a p value far below 1e-9 at full precision, like runs too; the table marks the alert',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
    seedRuns(dir, [
      { judgment: 'spam', counts: { is_spam: { yes: 100, no: 900 } } },
      { judgment: 'spam', counts: { is_spam: { yes: 300, no: 700 } } },
    ])
    const { p_value } = JSON.parse((await cli(['drift', '.', '--json'], {}, dir)).stdout).is_spam[1]
    t.ok(p_value > 0 && p_value < 1e-9 && p_value !== Math.round(p_value * 1e9) / 1e9, `p ${p_value}`)
    t.match((await cli(['drift', '.'], {}, dir)).stdout, /ALERT/)
    const like = JSON.parse((await cli(['drift', '.', '--json', '--completed'], {}, dir)).stdout).is_spam[1]
    t.equal(like.p_value, p_value)
  },
)
