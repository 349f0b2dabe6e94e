import t, { type Test } from 'tap'
import { cli } from '../../helpers/cli.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'

/** Two runs of spam: is_spam moves from 10% to 50% yes; topic and urgency have no counts. */
function seeded(t: Test) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML })
  const runs = seedRuns(dir, [{ judgment: 'spam', counts: { is_spam: { yes: 1, no: 9 } } }, { judgment: 'spam', counts: { is_spam: { yes: 5, no: 5 } } }])
  return { dir, runs }
}

t.test('--json gives each question its runs oldest first, the first change null, an alert above the line', async (t) => {
  const { dir, runs } = seeded(t)
  const result = await cli(['drift', '.', '--node', 'spam', '--json'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  const drift = JSON.parse(result.stdout)
  t.same(Object.keys(drift), ['is_spam', 'topic', 'urgency'])
  t.same(drift.is_spam, [
    { run_id: runs[0].run_id, rows: 10, shares: { yes: 0.1, no: 0.9 }, change: null, alert: false, p_value: null, significant: false },
    // 1 of 10 then 5 of 10: an alert, but two runs of one mix differ so much 15% of the time.
    { run_id: runs[1].run_id, rows: 10, shares: { yes: 0.5, no: 0.5 }, change: 0.4, alert: true, p_value: 0.152923538, significant: false },
  ])
  t.same(drift.topic, [])
})

t.test('--every-run shows a table per question, flags an alert, and says when a question has no runs', async (t) => {
  const { dir, runs } = seeded(t)
  const { stdout } = await cli(['drift', 'spam.judge.yaml', '--every-run'], {}, dir)
  t.match(stdout, new RegExp(`^spam\\.is_spam: every run against the previous one\\n  run\\s+rows\\s+change\\s+label mix\\n  ${runs[0].run_id}\\s+10\\s+-\\s+no 90\\.0%\\s+yes 10\\.0%\\n  ${runs[1].run_id}\\s+10\\s+0\\.400\\s+ALERT\\s+(yes|no) 50\\.0%`))
  t.match(stdout, /\nspam\.topic: every run against the previous one\n  no runs yet\nspam\.urgency: every run against the previous one\n  no runs yet\n$/)
})

t.test('a judgment without runs says so', async (t) => {
  const { dir } = seeded(t)
  t.match(await cli(['drift', 'tone.judge.yaml'], {}, dir), { code: 0, stdout: 'tone: no runs yet\n' })
  t.match(await cli(['drift', 'tone.judge.yaml', '--every-run'], {}, dir), { code: 0, stdout: 'tone.tone: every run against the previous one\n  no runs yet\n' })
})

t.test('by default each series of like runs has its table per question, each run against the previous complete one of its series', async (t) => {
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
  t.match(data, /^spam: `run` of data\.csv\n  is_spam\n    run\s+status\s+rows\s+model\s+vs run\s+change\s+model part\s+data part\s+label mix\n/)
  t.match(data, new RegExp(`\\n    ${runs[2].run_id}\\s+failed\\s+10\\s+jev-1\\.13\\.0\\s+${runs[0].run_id}\\s+0\\.800\\s+0\\.000`), 'a failed run: compared, no alert')
  t.match(data, new RegExp(`\\n    ${runs[3].run_id}\\s+complete\\s+10\\s+jev-1\\.13\\.0\\s+${runs[0].run_id}\\s+0\\.000\\s+0\\.000\\s+0\\.000`), 'never against the failed one')
  t.match(data, new RegExp(`\\n    ${runs[4].run_id}\\s+complete\\s+10\\s+jev-2\\s+${runs[3].run_id}\\s+0\\.100\\s+\\?\\s+-`), 'another model without a check: its part unmeasured')
  t.notMatch(data, /ALERT/)
  t.match(later, /^spam: `run` of later\.csv\n  is_spam\n/)
  const json = JSON.parse((await cli(['drift', 'spam.judge.yaml', '--json', '--source', 'later.csv'], {}, dir)).stdout)
  t.same(json.is_spam.map((e: { run_id: string }) => e.run_id), [runs[1].run_id])
  const completed = JSON.parse((await cli(['drift', 'spam.judge.yaml', '--json', '--command', 'run', '--completed'], {}, dir)).stdout)
  t.same(completed.is_spam.map((e: { run_id: string }) => e.run_id), [runs[0].run_id, runs[1].run_id, runs[3].run_id, runs[4].run_id])
})
