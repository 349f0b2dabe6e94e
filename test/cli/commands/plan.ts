import t from 'tap'
import { cli } from '../../helpers/cli.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const MESSAGES = 'message\nhello\nWIN a prize\nhello\nlunch?\n'

t.test(
  '--json counts rows, distinct states, duplicates (not cached answers) and what would be asked, asking nothing',
  async (t) => {
    const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': MESSAGES })
    const result = await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    const [plan] = JSON.parse(result.stdout)
    t.match(plan, {
      judgment: 'spam',
      model: 'jev-1.13.0',
      rows: 4,
      states: 3,
      duplicates: 1,
      cached: 0,
      ask: 9,
      requests: 3,
      unknown: 0,
      cap: 1,
      within_cap: true,
    })
    t.same(
      plan.questions.map((q: { question: string; last_run_fingerprint: null; changed: boolean }) => [
        q.question,
        q.last_run_fingerprint,
        q.changed,
      ]),
      [
        ['is_spam', null, false],
        ['topic', null, false],
        ['urgency', null, false],
      ],
    )
    t.ok(plan.estimate > 0)
  },
)

t.test('after a run everything is cached: nothing to ask, nothing to spend', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'messages.csv': MESSAGES })
  const env = { ENGINE: 'simulated' }
  t.equal((await cli(['run', 'spam.judge.yaml', '--data', 'messages.csv'], env, dir)).code, 0)
  const { stdout } = await cli(['plan', 'spam.judge.yaml', '--data', 'messages.csv'], env, dir)
  t.match(
    stdout,
    /^spam: answers of model simulated-1\njudgment\s+rows\s+states\s+duplicates\s+cached\s+to ask\s+requests\s+estimate\s+cap\nspam\s+4\s+3\s+1\s+9\s+0\s+0\s+would cost \$0\.00 on System One \(simulated: nothing spent\)\s+none\nJUDGE_MAX_COST does not apply to the simulated engine, which spends nothing\n\n/,
  )
  t.match(
    stdout,
    /\nquestion\s+fingerprint\s+since the last run\s+answers no longer applying\s+to ask them again\nspam\.is_spam\s+[0-9a-f]{16}\s+unchanged\s+0\s+would cost \$0\.00 on System One \(simulated: nothing spent\)\n/,
  )
})

t.test('a plan over JUDGE_MAX_COST is shown as over, and plan still exits 0', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.csv': MESSAGES })
  const result = await cli(['plan', 'spam.judge.yaml', '--data', 'rows.csv'], { JUDGE_MAX_COST: '0.000001' }, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(result.stdout, /over \$0\.000001/)
})

t.test('--delimiter reads another separator; a missing data file exits 2 naming it', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'rows.txt': 'id;message\n1;hello\n2;bye\n' })
  const [plan] = JSON.parse(
    (await cli(['plan', 'spam.judge.yaml', '--data', 'rows.txt', '--delimiter', ';', '--json'], {}, dir)).stdout,
  )
  t.match(plan, { rows: 2, states: 2 })
  t.match(await cli(['plan', 'spam.judge.yaml', '--data', 'gone.csv'], {}, dir), {
    code: 2,
    stderr: /^judge plan: gone\.csv: no such data file/,
  })
})

t.test(
  "a semicolon file without --delimiter fails with the hint; the spec's delimiter: then reads it on every command",
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': SPAM_YAML + 'data: rows.csv\n',
      'rows.csv': 'id;message\n1;hello\n2;bye\n',
    })
    const failed = await cli(['plan', 'spam.judge.yaml'], {}, dir)
    t.equal(failed.code, 2)
    t.match(
      failed.stderr,
      /rows\.csv:2: the row lacks the state column "message"; its columns are "id;message"; the header is one column holding ";": read the file with --delimiter ';', or set delimiter: ";" in the spec/,
    )
    t.match(failed.stderr.split('\n')[0], /^judge plan: /)
    const { writeFileSync } = await import('node:fs')
    writeFileSync(`${dir}/spam.judge.yaml`, SPAM_YAML + 'data: rows.csv\ndelimiter: ";"\n')
    t.match(JSON.parse((await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir)).stdout), [{ rows: 2, states: 2 }])
    const run = await cli(['run', 'spam.judge.yaml', '--json'], { ENGINE: 'simulated' }, dir)
    t.equal(run.code, 0, run.stderr)
  },
)

t.test(
  'a misspelt state column names the nearest column of the file and lists them; a misspelt key of a question is told its name',
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': SPAM_YAML.replace('state: [message]', 'state: [mesage]'),
      'typo.judge.yaml': 'state: [message]\nquestions:\n  q:\n    ask: Is it spam?\n    tpye: yes_no\n',
      'rows.csv': 'id,message,sender\n1,hello,ana\n',
    })
    t.match(await cli(['plan', 'spam.judge.yaml', '--data', 'rows.csv'], {}, dir), {
      code: 2,
      stderr:
        /rows\.csv:2: the row lacks the state column "mesage" \(did you mean "message"\?\); its columns are "id", "message", "sender"/,
    })
    t.match(await cli(['plan', 'typo.judge.yaml', '--data', 'rows.csv'], {}, dir), {
      code: 2,
      stderr: /questions\.q\.tpye: unknown key \(did you mean type\?\); the known keys are ask, type, labels/,
    })
  },
)

t.test(
  'plan, calibrate and test name the model they read, and the other models the store holds answers of, with the setting that reads them',
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': SPAM_YAML.replace(/\nkey: .*|$/, '') + 'data: messages.csv\nkey: spam.key.csv\n',
      'messages.csv': MESSAGES,
      'spam.key.csv': 'message,is_spam\nhello,no\nWIN a prize,yes\n',
    })
    t.equal((await cli(['run', 'spam.judge.yaml'], { ENGINE: 'simulated' }, dir)).code, 0)
    const note =
      'spam: answers of model jev-1.13.0; the store also holds answers to these questions from other models: 9 of simulated-1 (ENGINE=simulated reads them)\n'
    t.match(
      (await cli(['plan', 'spam.judge.yaml'], {}, dir)).stdout,
      new RegExp(`^${note.replace(/[()]/g, '\\$&')}judgment`),
    )
    t.match((await cli(['calibrate', 'spam.judge.yaml'], {}, dir)).stdout, note)
    t.match(
      (await cli(['calibrate', 'spam.judge.yaml'], { ENGINE: 'simulated' }, dir)).stdout,
      /^spam: answers of model simulated-1\n/,
      'with the setting, the simulated answers are read',
    )
    const tested = await cli(['test', 'spam.judge.yaml'], { ENGINE: 'simulated' }, dir)
    t.match(tested.stdout, /^spam: answers of model simulated-1\n/)
  },
)

t.test('a spec copied beside itself to try a variant names the fix: a name of its own, which then works', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML, 'spam-copy.judge.yaml': SPAM_YAML, 'm.csv': MESSAGES })
  const clash = await cli(['plan', 'spam.judge.yaml', '--data', 'm.csv'], {}, dir)
  t.equal(clash.code, 2)
  t.match(
    clash.stderr,
    /the judgment name "spam" is also used by spam-copy\.judge\.yaml: give one of them a name of its own, such as name: spam-copy in spam-copy\.judge\.yaml/,
  )
  const { writeFileSync } = await import('node:fs')
  writeFileSync(`${dir}/spam-copy.judge.yaml`, SPAM_YAML.replace('name: spam', 'name: spam-copy'))
  t.match(await cli(['plan', 'spam.judge.yaml', '--data', 'm.csv'], {}, dir), { code: 0 })
})
