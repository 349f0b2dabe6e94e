import t, { type Test } from 'tap'
import { join } from 'node:path'
import { existsSync, writeFileSync } from 'node:fs'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../../../src/adapters/sqlite/sqlite-store.ts'
import { targetOf } from '../../../src/cli/commands/calibrate.ts'
import { stateHash } from '../../../src/core/judge/state.ts'
import { seededRandom } from '../../../src/core/review/seeded-random.ts'
import { parseSpec } from '../../../src/core/spec/spec-parse.ts'
import { cli } from '../../helpers/cli.ts'
import { precisionPopulation, truePrecision, type PrecisionRow } from '../../helpers/precision-population.ts'

const YAML = `name: spam
model: jev-test
state: [message]
questions:
  is_spam: {ask: Is this spam?, type: yes_no}
act:
  is_spam:
    - route: block
      when: {label: yes, p: ">= 0.7"}
    - route: deliver
key: spam.key.csv
key_sample: random
`

// Right 80% of the time below p 0.8, 95% from 0.8, 99.5% from 0.9: the precision of "yes at p >= t" is known for every t.
const chance = (p: number) => (p >= 0.9 ? 0.995 : p >= 0.8 ? 0.95 : 0.8)

/** A project whose store holds every answer of the population and whose key is a random quarter of it. */
function project(t: Test, rows: readonly PrecisionRow[]) {
  const dir = t.testdir({ 'spam.judge.yaml': YAML })
  const question = parseSpec(YAML, join(dir, 'spam.judge.yaml')).questions[0]
  const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
  const message = (r: PrecisionRow) => `message ${r.hash}`
  for (const r of rows) {
    const yes = r.label === 'yes' ? r.p : Math.round((1 - r.p) * 100) / 100
    const state = { message: message(r) }
    store.putAnswers([{ model: 'jev-test', fingerprint: question.fingerprint, stateHash: stateHash(state), judgment: 'spam', question: 'is_spam', distribution: { yes, no: Math.round((1 - yes) * 100) / 100 }, label: r.label, p: r.p, margin: r.margin, askedAt: '2026-01-01T00:00:00.000' }], stateHash(state), state)
  }
  store.close()
  const random = seededRandom(3)
  const key = rows.filter(() => random() < 0.25).map((r) => [message(r), r.correct ? r.label : r.label === 'yes' ? 'no' : 'yes'])
  writeFileSync(join(dir, 'spam.key.csv'), stringify([['message', 'is_spam'], ...key]))
  return dir
}

t.test('on a population with known precision per threshold, calibrate suggests a threshold whose true precision meets the target', async (t) => {
  const rows = precisionPopulation(6000, 21, chance)
  const dir = project(t, rows)
  const result = await cli(['calibrate', 'spam.judge.yaml', '--json'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  const { spam } = JSON.parse(result.stdout)
  t.equal(spam.target, 0.95)
  const [block] = spam.thresholds
  t.match(block, { question: 'is_spam', route: 'block', labels: ['yes'], variable: 'p', current: { comparison: '>= 0.7' } })
  const threshold = block.suggested.threshold
  t.ok(truePrecision(rows, threshold) >= 0.95, `suggested p >= ${threshold}: true precision ${truePrecision(rows, threshold).toFixed(4)}`)
  t.ok(truePrecision(rows, 0.7) < 0.95, 'the spec\'s own threshold does not meet it')
  t.match(spam.act, new RegExp(`- route: block\\n {6}when: \\{label: yes, p: ">= ${threshold}"\\}`))

  const human = await cli(['calibrate', 'spam.judge.yaml'], {}, dir)
  t.match(human.stdout, /^spam: thresholds whose precision is at least 95\.0% at the lower end of the 95% interval$/m)
  t.match(human.stdout, new RegExp(`^ {4}suggested "p >= ${threshold}": precision [\\d.]+% \\([\\d.]+% to [\\d.]+%\\), routes [\\d.]+% of answers \\(\\d+\\)$`, 'm'))
  t.match(human.stdout, /the act block to paste into spam\.judge\.yaml:\n {4}act:\n/)

  const strict = JSON.parse((await cli(['calibrate', 'spam.judge.yaml', '--json', '--target', '0.999'], {}, dir)).stdout)
  t.equal(strict.spam.thresholds[0].suggested, null, 'no threshold reaches 99.9%')
})

t.test('--target is a number between 0 and 1; without a store calibrate reports nothing to go on and creates none', async (t) => {
  t.equal(targetOf(undefined), 0.95)
  t.equal(targetOf('0.9'), 0.9)
  t.equal(targetOf('.99'), 0.99)
  for (const bad of ['1', '0', '95%', '1.5', 'x', '']) t.throws(() => targetOf(bad), { name: 'UsageError', message: /--target must be a number between 0 and 1/ })
  const dir = t.testdir({ 'spam.judge.yaml': YAML.replace('key: spam.key.csv\nkey_sample: random\n', '') })
  const result = await cli(['calibrate', 'spam.judge.yaml', '--json'], {}, dir)
  t.equal(result.code, 0, result.stderr)
  t.match(JSON.parse(result.stdout).spam.thresholds, [{ suggested: null, table: [] }])
  t.notOk(existsSync(join(dir, '.judge')), 'no store is created')
  const bad = await cli(['calibrate', 'spam.judge.yaml', '--target', '2'], {}, dir)
  t.match(bad, { code: 2, stderr: /--target must be a number between 0 and 1/ })
})
