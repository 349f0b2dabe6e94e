import t from 'tap'
import { join } from 'node:path'
import { compareStored, truthOf } from '../../src/app/compare.ts'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { readConfig } from '../../src/config.ts'
import type { VerdictRecord } from '../../src/core/review/verdicts.ts'
import { createRuntime } from '../../src/runtime.ts'
import { setup } from '../helpers/replay-project.ts'
import { spec, SPAM_YAML } from '../helpers/specs.ts'

t.test('the server\'s comparison reads only the candidate answers the store holds, and asks nothing', async (t) => {
  const { dir, env, engine, before } = await setup(t, { keep: 10, shadowed: 6 })
  const runtime = createRuntime(readConfig(env, dir))
  t.teardown(() => runtime.close())
  const report = await compareStored(runtime, { live: loadProject(join(dir, 'spam.judge.yaml')), candidate: loadProject(join(dir, 'candidates/spam-v2.judge.yaml')), margin: 0.01 })
  t.equal(engine.requests.length, before, 'nothing asked')
  t.match(report, { kept: 10, compared: 6, totals: null, run: null })
  // Shadowed rows 0-5: they differ on 3, 4 and 5.
  t.match(report.questions.is_spam, { rows: 6, discordant_rows: 3, verdict: 'not enough evidence', reviews_needed: 3 })
})

t.test('the truth of a row is its standing verdict\'s labels, else the key\'s; a verdict without a label is none', async (t) => {
  const judgment = spec(SPAM_YAML)
  const key = new Map([['k1', { stateHash: 'k1', state: { message: 'a' }, labels: { is_spam: 'no' }, where: 'key.csv' }], ['k2', { stateHash: 'k2', state: { message: 'b' }, labels: { is_spam: 'yes' }, where: 'key.csv' }]])
  const verdict = (hash: string, verdict: string, labels: string[]): [string, VerdictRecord] => [`spam\0is_spam\0${hash}`, {
    reviewed_at: '2026-01-01T00:00:00.000', reviewer: 'ann', judgment: 'spam', question: 'is_spam', state_hash: hash, kind: 'spot_check', verdict: verdict as VerdictRecord['verdict'], labels,
    model_label: 'yes', key_label: null, state: { message: hash }, stratum: null, rank: null,
  }]
  const verdicts = new Map([verdict('k1', 'labeled', ['yes']), verdict('r1', 'both_ok', ['yes', 'no']), verdict('r2', 'ambiguous', []), verdict('k2', 'needs_context', [])])
  const truth = truthOf(judgment, 'is_spam', key, verdicts)
  t.same(truth.get('k1'), ['yes'], 'a verdict overrides the key')
  t.same(truth.get('k2'), ['yes'], 'a verdict without a label leaves the key\'s')
  t.same(truth.get('r1'), ['yes', 'no'])
  t.notOk(truth.has('r2'))
})
