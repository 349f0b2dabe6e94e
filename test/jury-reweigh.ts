import t from 'tap'
import { join } from 'node:path'
import { stringify } from 'csv-stringify/sync'
import { MIN_REVIEWED } from '../src/core/jury/dawid-skene.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { parseSpec } from '../src/core/spec/spec-parse.ts'
import type { StoredAnswer } from '../src/ports/answer-store.ts'
import { cli } from './helpers/cli.ts'
import { smsMessages } from './helpers/sms.ts'
import { confirmLabels, readStore, TRIO, TRIO_JURORS, TRIO_JURY } from './helpers/trio-cli.ts'

const ALONE = `name: alone
state: [message]
questions:
  is_spam:
    ask: Is this message spam?
    type: yes_no
`

t.test(
  `judge run --reweigh makes a jury's stored votes again with its weights once people reviewed ${MIN_REVIEWED} rows`,
  async (t) => {
    const messages = [...new Set(smsMessages().map((r) => r.message))].slice(0, MIN_REVIEWED)
    const dir = t.testdir({
      'trio.judge.yaml': TRIO,
      'rows.csv': stringify([['message'], ...messages.map((m) => [m])]),
    })
    const env = { ENGINE: 'simulated', JUDGE_STORE: join(dir, 'store.sqlite') }
    const trio = parseSpec(TRIO, join(dir, 'trio.judge.yaml'))
    const fp = trio.questions[0].fingerprint
    const answers = (model: string): StoredAnswer[] =>
      readStore(dir, (store) =>
        messages.map((message) => store.getAnswers(model, stateHash({ message }), [fp]).get(fp)!),
      )
    const lastRun = async () => JSON.parse((await cli(['runs', 'trio.judge.yaml', '--json'], env, dir)).stdout)[0]

    t.equal((await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv'], env, dir)).code, 0)
    const votes = answers(TRIO_JURY)
    t.ok(
      votes.every((a) => a.source === 'vote'),
      'judged before any review: equal votes',
    )
    const jurors = TRIO_JURORS.map(answers)
    await confirmLabels(
      trio,
      messages.map((message, i) => [message, votes[i].label] as const),
    )

    const plain = await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv'], env, dir)
    t.equal(plain.code, 0, plain.stderr)
    t.same(answers(TRIO_JURY), votes, 'a plain run keeps the stored votes')

    const reweigh = await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv', '--reweigh'], env, dir)
    t.equal(reweigh.code, 0, reweigh.stderr)
    const weighed = answers(TRIO_JURY)
    t.ok(
      weighed.every((a) => a.source === 'jury'),
      "every row's jury answer is made again with the jury's weights",
    )
    // The simulated jurors agree on every row: each answer changes its source, none its label.
    t.match(
      reweigh.stdout,
      `re-weighed with the jury's current weights: ${MIN_REVIEWED} stored answers changed, 0 of them in label`,
    )
    t.match(reweigh.stdout, `trio: ${MIN_REVIEWED} rows, ${MIN_REVIEWED} answers cached, 0 asked in 0 requests`)
    t.match(await lastRun(), { model: TRIO_JURY, asked: 0, rows: MIN_REVIEWED })
    t.same(TRIO_JURORS.map(answers), jurors, "the jurors' own answers are untouched")
    t.same(
      weighed.map((a) => [a.judgment, a.question]),
      votes.map((a) => [a.judgment, a.question]),
      'each keeps the judgment and question that first asked it',
    )
    readStore(dir, (store) => {
      t.equal(store.countAnswers(TRIO_JURY, fp), MIN_REVIEWED, 'each answer counted once')
      const counted = (cells: { count: number }[]) => cells.reduce((sum, c) => sum + c.count, 0)
      t.equal(counted(store.answerCells(TRIO_JURY, fp, 'grid')), MIN_REVIEWED, 'the running tally agrees')
      t.equal(counted(store.answerCells(TRIO_JURY, fp, 'exact')), MIN_REVIEWED)
      t.same(store.countSources(TRIO_JURY, fp), { jury: MIN_REVIEWED }, 'the votes are counted out')
      const split = (cells: { count: number; split?: boolean }[]) => counted(cells.filter((c) => c.split))
      t.equal(split(store.answerCells(TRIO_JURY, fp, 'grid')), split(store.answerCells(TRIO_JURY, fp, 'exact')))
    })

    const again = await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv', '--reweigh'], env, dir)
    t.equal(again.code, 0, again.stderr)
    t.match(again.stdout, "re-weighed with the jury's current weights: 0 stored answers changed, 0 of them in label")
    t.same(answers(TRIO_JURY), weighed, 'a second re-weighing with the same weights changes nothing')

    const after = await cli(['run', 'trio.judge.yaml', '--data', 'rows.csv'], env, dir)
    t.equal(after.code, 0, after.stderr)
    t.notMatch(after.stdout, 're-weighed', 'a plain run says nothing of re-weighing')
    t.match(after.stdout, `trio: ${MIN_REVIEWED} rows, ${MIN_REVIEWED} answers cached, 0 asked in 0 requests`)
    t.same(answers(TRIO_JURY), weighed, 'a plain run after keeps the weighed answers')
  },
)

t.test('--reweigh refuses a judgment without a jury, and --batch', async (t) => {
  const dir = t.testdir({ 'alone.judge.yaml': ALONE, 'rows.csv': stringify([['message'], ['hi']]) })
  const env = { ENGINE: 'simulated', JUDGE_STORE: join(dir, 'store.sqlite') }
  const alone = await cli(['run', 'alone.judge.yaml', '--data', 'rows.csv', '--reweigh'], env, dir)
  t.equal(alone.code, 2)
  t.match(alone.stderr, "--reweigh re-weighs a jury's answers only, and alone names no jury (models:)")
  const batch = await cli(['run', 'alone.judge.yaml', '--data', 'rows.csv', '--reweigh', '--batch'], env, dir)
  t.equal(batch.code, 2)
  t.match(batch.stderr, '--reweigh does not go with --batch')
})
