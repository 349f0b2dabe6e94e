import t, { type Test } from 'tap'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { parse } from 'csv-parse/sync'
import { estimateStateTokens, tokenCost } from '../../../src/core/judge/cost.ts'
import { cli } from '../../helpers/cli.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'
import { smsCsv } from '../../helpers/sms.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'

const TOPIC = 'What is the message mainly about?'

async function edited(t: Test) {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML + 'data: messages.csv\n', 'messages.csv': smsCsv(30, 5) })
  const engine = createFakeEngine()
  const options = { engine }
  t.equal((await cli(['run', 'spam.judge.yaml'], {}, dir, options)).code, 0)
  const spec = join(dir, 'spam.judge.yaml')
  writeFileSync(spec, readFileSync(spec, 'utf8').replace(TOPIC, 'What is the message about, mostly?'))
  const messages = [
    ...new Set((parse(smsCsv(30, 5), { columns: true }) as { message: string }[]).map((r) => r.message)),
  ]
  return { dir, engine, options, messages }
}

t.test(
  'a reworded question: the plan lists exactly its cached answers as no longer applying, with the refill cost, asking nothing',
  async (t) => {
    const { dir, engine, options, messages } = await edited(t)
    const asked = engine.calls.length
    const result = await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir, options)
    t.equal(result.code, 0, result.stderr)
    const [plan] = JSON.parse(result.stdout)
    t.same(
      plan.questions.map((q: { question: string; changed: boolean; stale: number }) => [
        q.question,
        q.changed,
        q.stale,
      ]),
      [
        ['is_spam', false, 0],
        ['topic', true, messages.length],
        ['urgency', false, 0],
      ],
    )
    const refill = messages.reduce((sum, message) => sum + tokenCost(estimateStateTokens({ message }, 1), 0.042), 0)
    t.ok(
      Math.abs(plan.questions[1].refill - refill) < 1e-12,
      `refill ${plan.questions[1].refill} is one request per stale answer`,
    )
    t.equal(plan.questions[0].refill, 0)
    t.match(plan, { states: messages.length, duplicates: 5, ask: messages.length, cached: messages.length * 2 })
    t.equal(engine.calls.length, asked, 'nothing was asked')
    const text = (await cli(['plan', 'spam.judge.yaml'], {}, dir, options)).stdout
    t.match(
      text,
      new RegExp(
        `\\nspam\\.topic\\s+[0-9a-f]{16}\\s+changed \\(was ${plan.questions[1].last_run_fingerprint}\\)\\s+${messages.length}\\s+\\$0\\.\\d+\\n`,
      ),
    )
    t.match(text, /\nspam\.is_spam\s+[0-9a-f]{16}\s+unchanged\s+0\s+\$0\.00\n/)
  },
)

t.test(
  'judge cache lists the answers per wording and model; --prune shows, --prune --yes deletes only the superseded ones',
  async (t) => {
    const { dir, options, messages } = await edited(t)
    const listed = JSON.parse((await cli(['cache', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout)
    t.same(
      listed.map((g: { question: string; answers: number; status: string }) => [g.question, g.answers, g.status]),
      [
        ['is_spam', messages.length, 'current'],
        ['topic', messages.length, 'superseded'],
        ['urgency', messages.length, 'current'],
      ],
    )
    const table = (await cli(['cache', 'spam.judge.yaml'], {}, dir, options)).stdout
    t.match(
      table,
      /^judgment\s+question\s+model\s+fingerprint\s+answers\s+newest\s+oldest\s+status\nspam\s+is_spam\s+fake-1\s+[0-9a-f]{16}\s+\d+\s+\d+ (s|min|h|d)\s+\d+ (s|min|h|d)\s+current\n/,
    )
    const dry = await cli(['cache', 'spam.judge.yaml', '--prune'], {}, dir, options)
    t.match(
      dry.stdout,
      new RegExp(
        `superseded\\nwould delete ${messages.length} answers of 1 superseded wording; nothing was deleted \\(give --yes to delete\\)\\n$`,
      ),
    )
    t.equal(
      JSON.parse((await cli(['cache', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout).length,
      3,
      'the dry run deleted nothing',
    )
    const pruned = await cli(['cache', 'spam.judge.yaml', '--prune', '--yes', '--json'], {}, dir, options)
    t.equal(pruned.code, 0, pruned.stderr)
    t.match(JSON.parse(pruned.stdout), {
      dry_run: false,
      answers: messages.length,
      deleted: messages.length,
      superseded: [{ question: 'topic', status: 'superseded' }],
    })
    t.same(
      JSON.parse((await cli(['cache', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout).map(
        (g: { question: string }) => g.question,
      ),
      ['is_spam', 'urgency'],
    )
    t.match(
      (await cli(['cache', 'spam.judge.yaml', '--prune', '--yes'], {}, dir, options)).stdout,
      'no superseded answers: nothing to prune\n',
    )
    const db = new DatabaseSync(join(dir, '.judge', 'store.sqlite'))
    t.same(db.prepare('PRAGMA integrity_check').all(), [{ integrity_check: 'ok' }])
    db.close()
    const [plan] = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir, options)).stdout)
    t.match(
      plan.questions[1],
      { question: 'topic', changed: true, stale: 0, refill: 0 },
      'nothing left that no longer applies',
    )
  },
)

t.test('--yes alone is refused; a store-less project lists nothing and makes no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  t.match(await cli(['cache', 'spam.judge.yaml', '--yes'], {}, dir), { code: 2, stderr: /--yes confirms --prune/ })
  t.match(await cli(['cache', 'spam.judge.yaml'], {}, dir), { code: 0, stdout: 'the store holds no answers\n' })
  t.match(await cli(['cache', 'spam.judge.yaml', '--json'], {}, dir), { code: 0, stdout: '[]\n' })
  t.match(await cli(['cache', 'spam.judge.yaml', '--help'], {}, dir), { code: 0, stdout: /^usage: judge cache/ })
  t.notOk(existsSync(join(dir, '.judge')))
})
