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
    { run_id: runs[0].run_id, rows: 10, shares: { yes: 0.1, no: 0.9 }, change: null, alert: false },
    { run_id: runs[1].run_id, rows: 10, shares: { yes: 0.5, no: 0.5 }, change: 0.4, alert: true },
  ])
  t.same(drift.topic, [])
})

t.test('the report shows a table per question, flags an alert, and says when a question has no runs', async (t) => {
  const { dir, runs } = seeded(t)
  const { stdout } = await cli(['drift', 'spam.judge.yaml'], {}, dir)
  t.match(stdout, new RegExp(`^spam\\.is_spam\\n  run\\s+rows\\s+change\\s+label mix\\n  ${runs[0].run_id}\\s+10\\s+-\\s+no 90\\.0%\\s+yes 10\\.0%\\n  ${runs[1].run_id}\\s+10\\s+0\\.400\\s+ALERT\\s+(yes|no) 50\\.0%`))
  t.match(stdout, /\nspam\.topic\n  no runs yet\nspam\.urgency\n  no runs yet\n$/)
})

t.test('a judgment without runs has every question without runs', async (t) => {
  const { dir } = seeded(t)
  t.match(await cli(['drift', 'tone.judge.yaml'], {}, dir), { code: 0, stdout: 'tone.tone\n  no runs yet\n' })
})
