import t from 'tap'
import { join } from 'node:path'
import { compareStored, truthOf } from '../../src/app/compare.ts'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { readConfig } from '../../src/config.ts'
import type { VerdictRecord } from '../../src/core/review/verdicts.ts'
import { createRuntime } from '../../src/runtime.ts'
import { writeFileSync } from 'node:fs'
import { createCompareMemo } from '../../src/app/compare-memo.ts'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { judgeRequest } from '../../src/app/judge-request.ts'
import { discordantOrder } from '../../src/core/compare/compare.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { spawnCli } from '../helpers/cli.ts'
import { message, setup, spamSpec } from '../helpers/replay-project.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

t.test("the server's comparison reads only the candidate answers the store holds, and asks nothing", async (t) => {
  const { dir, env, engine, before } = await setup(t, { keep: 10, shadowed: 6 })
  const runtime = createRuntime(readConfig(env, dir))
  t.teardown(() => runtime.close())
  const report = await compareStored(runtime, {
    live: loadProject(join(dir, 'spam.judge.yaml')),
    candidate: loadProject(join(dir, 'candidates/spam-v2.judge.yaml')),
    margin: 0.01,
  })
  t.equal(engine.requests.length, before, 'nothing asked')
  t.match(report, { kept: 10, compared: 6, totals: null, run: null })
  // Shadowed rows 0-5: they differ on 3, 4 and 5.
  t.match(report.questions.is_spam, { rows: 6, discordant_rows: 3, verdict: 'not enough evidence', reviews_needed: 3 })
  t.match(report.questions.topic, { changed: false, verdict: 'unchanged' }, 'topic is asked alike: unchanged')
})

t.test(
  "the truth of a row is its standing verdict's labels, else the key's; a verdict without a label is none",
  async (t) => {
    const judgment = spec(SPAM_YAML)
    const key = new Map([
      ['k1', { stateHash: 'k1', state: { message: 'a' }, labels: { is_spam: 'no' }, where: 'key.csv' }],
      ['k2', { stateHash: 'k2', state: { message: 'b' }, labels: { is_spam: 'yes' }, where: 'key.csv' }],
    ])
    const verdict = (hash: string, verdict: string, labels: string[]): [string, VerdictRecord] => [
      `spam\0is_spam\0${hash}`,
      {
        reviewed_at: '2026-01-01T00:00:00.000',
        reviewer: 'ann',
        judgment: 'spam',
        question: 'is_spam',
        state_hash: hash,
        kind: 'spot_check',
        verdict: verdict as VerdictRecord['verdict'],
        labels,
        model_label: 'yes',
        key_label: null,
        state: { message: hash },
        stratum: null,
        rank: null,
      },
    ]
    const verdicts = new Map([
      verdict('k1', 'labeled', ['yes']),
      verdict('r1', 'both_ok', ['yes', 'no']),
      verdict('r2', 'ambiguous', []),
      verdict('k2', 'needs_context', []),
    ])
    const truth = truthOf(judgment, 'is_spam', key, verdicts)
    t.same(truth.get('k1'), ['yes'], 'a verdict overrides the key')
    t.same(truth.get('k2'), ['yes'], "a verdict without a label leaves the key's")
    t.same(truth.get('r1'), ['yes', 'no'])
    t.notOk(truth.has('r2'))
  },
)

t.test(
  "a server's comparison, kept between requests, is the one made afresh after every change that alters it, whichever process makes it",
  async (t) => {
    // Rows 0-10 kept, 0-9 judged live, 0-3 answered by the candidate.
    const { dir, env } = await setup(t, { keep: 11, shadowed: 4 })
    const server = createRuntime(readConfig(env, dir))
    const other = createRuntime(readConfig(env, dir))
    t.teardown(() => (server.close(), other.close()))
    const memo = createCompareMemo()
    const candidateFile = join(dir, 'candidates/spam-v2.judge.yaml')
    const input = () => ({
      live: loadProject(join(dir, 'spam.judge.yaml')),
      candidate: loadProject(candidateFile),
      margin: 0.01,
    })
    const otherStore = () => other.depsFor(input().live).store
    let last = await compareStored(server, input(), memo)
    const check = async (what: string, moved: boolean) => {
      const asked = input()
      const kept = await compareStored(server, asked, memo)
      // A runtime of its own, without a memo: the comparison made afresh.
      const fresh = createRuntime(readConfig(env, dir))
      t.teardown(() => fresh.close())
      t.same(kept, await compareStored(fresh, asked), `${what}: the comparison is the one made afresh`)
      if (moved) t.not(kept.questions.is_spam, last.questions.is_spam, `${what}: it changed`)
      else t.equal(kept.questions.is_spam, last.questions.is_spam, `${what}: the comparison kept is served`)
      last = kept
    }
    t.match(last, { kept: 11, compared: 4 })
    await check('nothing written', false)
    otherStore().keptRows('spam')
    await check('another process only reading', false)
    for (const i of [4, 5])
      await judgeRequest(other, { project: input().candidate, row: { message: message(i) }, cap: 0.01 })
    await check('new answers of the candidate', true)
    t.match(last, { compared: 6, questions: { is_spam: { discordant_rows: 3 } } })
    await judgeRequest(other, { project: input().candidate, row: { message: message(10) }, cap: 0.01 })
    await judgeRequest(other, { project: input().live, row: { message: message(10) }, cap: 0.01 })
    await check('new answers of the live spec for a kept row', true)
    await judgeRequest(other, { project: input().candidate, row: { message: message(12) }, cap: 0.01 })
    await judgeRequest(other, { project: input().live, row: { message: message(12) }, cap: 0.01, log: true })
    await check('a new kept row', true)
    t.match(last, { kept: 12 })
    const differ = discordantOrder(
      'spam',
      'is_spam',
      [3, 4, 5].map((i) => ({ stateHash: stateHash({ message: message(i) }), live: 'a', candidate: 'b' })),
    )[0].stateHash
    await other.files.appendComparison(input().live.selected[0], {
      ...verdictOn(differ, 'labeled', ['yes']),
      kind: 'compare',
      verdict: 'labeled',
    })
    await check('a comparison verdict', true)
    t.match(last.questions.is_spam, { reviewed: 1 })
    await other.files.appendVerdict(
      input().live.selected[0],
      verdictOn(stateHash({ message: message(0) }), 'labeled', ['no']),
    )
    await check('a verdict on a compared row', true)
    await other.files.appendVerdict(
      input().live.selected[0],
      verdictOn(stateHash({ message: message(40) }), 'labeled', ['no']),
    )
    await check('a verdict on a row not compared', false)
    const gone = stateHash({ message: message(4) })
    otherStore().forget({ values: [gone], records: [gone] }, { at: '2026-11-25T10:00:00', command: 'test' })
    await check('a kept row forgotten', true)
    t.match(last, { kept: 11 })
    t.equal(
      (await spawnCli(['compare', 'spam.judge.yaml', 'candidates/spam-v2.judge.yaml'], env, dir)).code,
      0,
      'judge compare replays the candidate',
    )
    await check("the candidate's answers stored by a judge command", true)
    writeFileSync(candidateFile, spamSpec('spam-v2', 'Is this message junk?'))
    await check('a candidate spec edit', true)
    t.match(last, { compared: 0 })
  },
)

t.test('a server keeping answers in memory gathers none that another process deleted', async (t) => {
  const { dir, env } = await setup(t, { keep: 10, shadowed: 6 })
  const server = createRuntime(readConfig(env, dir), {
    openStore: (file) => openSqliteStore(file, { batchReads: true, cachedStates: 100 }),
  })
  const other = createRuntime(readConfig(env, dir))
  t.teardown(() => (server.close(), other.close()))
  const memo = createCompareMemo()
  const input = {
    live: loadProject(join(dir, 'spam.judge.yaml')),
    candidate: loadProject(join(dir, 'candidates/spam-v2.judge.yaml')),
    margin: 0.01,
  }
  t.match(await compareStored(server, input, memo), { compared: 6 })
  const store = other.depsFor(input.live).store
  for (const group of store.answerGroups().filter((g) => g.judgment === 'spam-v2')) store.deleteAnswers(group)
  t.match(
    await compareStored(server, input, memo),
    { compared: 0 },
    "the candidate's answers pruned: nothing to compare",
  )
})

function verdictOn(hash: string, verdict: VerdictRecord['verdict'], labels: string[]): VerdictRecord {
  return {
    reviewed_at: '2026-11-25T10:00:00.000',
    reviewer: 'ann',
    judgment: 'spam',
    question: 'is_spam',
    state_hash: hash,
    kind: 'spot_check',
    verdict,
    labels,
    model_label: 'yes',
    key_label: null,
    state: { message: 'm' },
    stratum: null,
    rank: null,
  }
}
