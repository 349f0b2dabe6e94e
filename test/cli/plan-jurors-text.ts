import t from 'tap'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { JuryPlan } from '../../src/app/jury-plan.ts'
import { juryPlanText, withJury } from '../../src/cli/plan-jurors-text.ts'
import { costWords } from '../../src/format.ts'
import { cli } from '../helpers/cli.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

const jury: JuryPlan = {
  judgment: 'spam',
  jurors: [
    { model: 'a', engine: null, cached: 1200, ask: 3, requests: 1, estimate: 0.0001, refill: {} },
    { model: 'oa-b', engine: 'openai', cached: 0, ask: 1203, requests: 401, estimate: 1.2, refill: {} },
  ],
  answers: null,
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
    { model: 'simulated-a', engine: 'simulated', cached: 0, ask: 6, requests: 2 },
    { model: 'simulated-b', engine: 'simulated', cached: 0, ask: 6, requests: 2 },
  ])
  t.match(plan.jury_total, { ask: 12, requests: 4 })
  t.equal(plan.jury_total.estimate, plan.jurors[0].estimate + plan.jurors[1].estimate)
  const text = await cli(['plan', 'spam.judge.yaml'], env, dir)
  t.equal(text.code, 0, text.stderr)
  t.match(
    text.stdout,
    /spam: a jury of 2 models, each asked and priced apart; its 6 answers to ask take 12 of its jurors':\n {2}juror +engine/,
  )
  t.match(text.stdout, /\n {2}simulated-b +simulated +0 +6 +2 +\$[\d.]+ \(simulated: nothing spent\)\n/)
  t.match(text.stdout, /\n {2}all jurors +12 +4 +\$[\d.]+ \(simulated: nothing spent\)\n/)
})

t.test("a mixed jury's total is its real jurors' spend, the simulated jurors' share beside it", async (t) => {
  const mixed: JuryPlan = {
    ...jury,
    jurors: [{ ...jury.jurors[0], model: 'simulated-a' }, jury.jurors[1]],
  }
  t.match(juryPlanText([mixed]), /\n {2}all jurors +1,206 +402 +\$1\.20 \(and \$0\.0001 simulated: nothing spent\)\n$/)
})

t.test("judge plan's line of a jury agrees with its jurors' plans, the store half filled", async (t) => {
  const trio = SPAM_YAML.replace('state: [message]', 'models: [a, b, c]\nstate: [message]')
  const half = 'message\nm1\nm2\nm3\nm4\n'
  const all = `${half}m5\nm6\nm7\nm8\n`
  const dir = t.testdir({ 'spam.judge.yaml': trio, 'half.csv': half, 'all.csv': all, 'a.judge.yaml': '' })
  const env = { ENGINE: 'simulated' }
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'half.csv'], env, dir)).code, 0)
  // Juror a alone answers the rest too: the jury's answers to m5…m8 still need b and c asked.
  const alone = SPAM_YAML.replace('name: spam', 'name: a\nmodel: a')
  writeFileSync(join(dir, 'a.judge.yaml'), alone)
  t.equal((await cli(['run', 'a.judge.yaml', '--data', 'all.csv'], env, dir)).code, 0)
  const out = await cli(['plan', 'spam.judge.yaml', '--data', 'all.csv', '--json'], env, dir)
  t.equal(out.code, 0, out.stderr)
  const [plan] = JSON.parse(out.stdout)
  t.match(plan.jurors, [
    { model: 'simulated-a', cached: 24, ask: 0, requests: 0 },
    { model: 'simulated-b', cached: 12, ask: 12, requests: 4 },
    { model: 'simulated-c', cached: 12, ask: 12, requests: 4 },
  ])
  t.match(plan, { rows: 8, states: 8, cached: 12, ask: 12, requests: 8 }, "the jury's line: its jurors' requests")
  t.equal(plan.requests, plan.jury_total.requests)
  t.equal(plan.estimate, plan.jury_total.estimate, "and their estimate, the one a run's cap is held to")
  const text = await cli(['plan', 'spam.judge.yaml', '--data', 'all.csv'], env, dir)
  t.match(text.stdout, /\nspam +8 +8 +0 +12 +12 +8 /)
  t.match(text.stdout, /its 12 answers to ask take 24 of its jurors'/)
  // Every juror holds every answer: the jury's missing answers are made from them, asking nothing.
  for (const juror of ['b', 'c']) {
    writeFileSync(join(dir, 'a.judge.yaml'), SPAM_YAML.replace('name: spam', `name: a\nmodel: ${juror}`))
    t.equal((await cli(['run', 'a.judge.yaml', '--data', 'all.csv'], env, dir)).code, 0)
  }
  const held = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--data', 'all.csv', '--json'], env, dir)).stdout)[0]
  t.match(held, { cached: 24, ask: 0, requests: 0, estimate: 0 })
  const run = JSON.parse((await cli(['run', 'spam.judge.yaml', '--data', 'all.csv', '--json'], env, dir)).stdout)[0]
  t.match(run, { asked: 0, cached: 24 }, 'as the run then counts them')
})

t.test("judge plan prices a jury's reworded question as asking each of its jurors again", async (t) => {
  const trio = SPAM_YAML.replace('state: [message]', 'models: [a, b, c]\nstate: [message]')
  const dir = t.testdir({ 'spam.judge.yaml': trio, 'rows.csv': 'message\nhello\nWIN a prize\nhello\nbye\n' })
  const env = { ENGINE: 'simulated' }
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'rows.csv'], env, dir)).code, 0)
  const reworded = trio.replace('What is the message mainly about?', 'What is it about?')
  writeFileSync(join(dir, 'spam.judge.yaml'), reworded)
  const json = await cli(['plan', 'spam.judge.yaml', '--data', 'rows.csv', '--json'], env, dir)
  t.equal(json.code, 0, json.stderr)
  const [plan] = JSON.parse(json.stdout)
  const topic = plan.questions.find((q: { question: string }) => q.question === 'topic')
  t.match(topic, { changed: true, stale: 3 })
  const each = plan.jurors.map((j: { refill: Record<string, number> }) => j.refill.topic)
  t.equal(each.length, 3)
  t.ok(
    each.every((usd: number) => usd > 0),
    'each juror holds the old wording on the 3 states',
  )
  t.equal(topic.refill, each[0] + each[1] + each[2], "the question's cost: its jurors' sum")
  t.same(plan.jurors[0].refill, { is_spam: 0, topic: each[0], urgency: 0 })
  const text = await cli(['plan', 'spam.judge.yaml', '--data', 'rows.csv'], env, dir)
  const line = text.stdout.split('\n').find((l) => l.startsWith('spam.topic '))!
  t.ok(line.endsWith(`  ${costWords(topic.refill, true)}`), `${line}: the jurors' sum, said simulated`)
})
