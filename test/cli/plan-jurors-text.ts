import t from 'tap'
import type { JuryPlan } from '../../src/app/jury-plan.ts'
import { juryPlanText, withJury } from '../../src/cli/plan-jurors-text.ts'
import { cli } from '../helpers/cli.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

const jury: JuryPlan = {
  judgment: 'spam',
  jurors: [
    { model: 'a', engine: null, cached: 1200, ask: 3, requests: 1, estimate: 0.0001 },
    { model: 'oa-b', engine: 'openai', cached: 0, ask: 1203, requests: 401, estimate: 1.2 },
  ],
  ask: 1206,
  requests: 402,
  estimate: 1.2001,
}

t.test('the jurors of a jury after the plan: each apart, then the total', async (t) => {
  t.equal(juryPlanText([]), '')
  t.equal(
    juryPlanText([jury]),
    'spam: a jury of 2 models, each asked and priced apart:\n' +
      '  juror       engine  cached  ask    requests  estimate\n' +
      '  a           ENGINE  1,200   3      1         $0.0001\n' +
      '  oa-b        openai  0       1,203  401       $1.20\n' +
      '  all jurors                  1,206  402       $1.20\n',
  )
})

t.test('--json gives a jury its jurors and total, a one-model judgment neither', async (t) => {
  t.same(withJury({ judgment: 'other', estimate: 1 }, [jury]), { judgment: 'other', estimate: 1 })
  t.same(withJury({ judgment: 'spam' }, [jury]), {
    judgment: 'spam',
    jurors: jury.jurors,
    jury_total: { ask: 1206, requests: 402, estimate: 1.2001 },
  })
})

t.test('judge plan prices each juror of a jury apart, in text and JSON', async (t) => {
  const yaml = SPAM_YAML.replace('state: [message]', 'models: [a, b]\nstate: [message]') + 'data: messages.csv\n'
  const dir = t.testdir({ 'spam.judge.yaml': yaml, 'messages.csv': 'message\nhello\nWIN a prize\nhello\n' })
  const env = { ENGINE: 'simulated' }
  const json = await cli(['plan', 'spam.judge.yaml', '--json'], env, dir)
  t.equal(json.code, 0, json.stderr)
  const [plan] = JSON.parse(json.stdout)
  t.match(plan.jurors, [
    { model: 'simulated-a', engine: null, cached: 0, ask: 6, requests: 2 },
    { model: 'simulated-b', engine: null, cached: 0, ask: 6, requests: 2 },
  ])
  t.match(plan.jury_total, { ask: 12, requests: 4 })
  t.equal(plan.jury_total.estimate, plan.jurors[0].estimate + plan.jurors[1].estimate)
  const text = await cli(['plan', 'spam.judge.yaml'], env, dir)
  t.equal(text.code, 0, text.stderr)
  t.match(text.stdout, /spam: a jury of 2 models, each asked and priced apart:\n {2}juror +engine/)
  t.match(text.stdout, /\n {2}simulated-b +ENGINE +0 +6 +2 +\$[\d.]+ \(simulated: nothing spent\)\n/)
  t.match(text.stdout, /\n {2}all jurors +12 +4 +\$[\d.]+ \(simulated: nothing spent\)\n/)
})
