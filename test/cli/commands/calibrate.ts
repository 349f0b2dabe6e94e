import t from 'tap'
import { join } from 'node:path'
import { existsSync } from 'node:fs'
import { targetOf } from '../../../src/cli/commands/calibrate.ts'
import { cli } from '../../helpers/cli.ts'
import { truePrecision } from '../../helpers/precision-population.ts'
import { accuracyProject, ACCURACY_YAML } from '../../helpers/accuracy-project.ts'

t.test(
  'on a population with known precision per threshold, calibrate suggests a threshold whose true precision meets the target',
  async (t) => {
    const { dir, rows } = accuracyProject(t, 6000, 0.25)
    const result = await cli(['calibrate', 'spam.judge.yaml', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    const { spam } = JSON.parse(result.stdout)
    t.equal(spam.target, 0.95)
    const [block] = spam.thresholds
    t.match(block, {
      question: 'is_spam',
      route: 'block',
      labels: ['yes'],
      variable: 'p',
      current: { comparison: '>= 0.7' },
    })
    const threshold = block.suggested.threshold
    t.ok(
      truePrecision(rows, threshold) >= 0.95,
      `suggested p >= ${threshold}: true precision ${truePrecision(rows, threshold).toFixed(4)}`,
    )
    t.ok(truePrecision(rows, 0.7) < 0.95, "the spec's own threshold does not meet it")
    t.match(spam.act, new RegExp(`- route: block\\n {6}when: \\{label: yes, p: ">= ${threshold}"\\}`))

    const human = await cli(['calibrate', 'spam.judge.yaml'], {}, dir)
    t.match(human.stdout, /^spam: thresholds whose precision is at least 95\.0% at the lower end of the 95% interval$/m)
    t.match(
      human.stdout,
      new RegExp(
        `^ {4}suggested "p >= ${threshold}": precision [\\d.]+% \\([\\d.]+% to [\\d.]+%\\), routes [\\d.]+% of answers \\(\\d+\\)$`,
        'm',
      ),
    )
    t.match(human.stdout, /the act block to paste into spam\.judge\.yaml:\n {4}act:\n/)

    const strict = JSON.parse(
      (await cli(['calibrate', 'spam.judge.yaml', '--json', '--target', '0.999'], {}, dir)).stdout,
    )
    t.equal(strict.spam.thresholds[0].suggested, null, 'no threshold reaches 99.9%')
  },
)

t.test(
  '--target is a number between 0 and 1; without a store calibrate reports nothing to go on and creates none',
  async (t) => {
    t.equal(targetOf(undefined), 0.95)
    t.equal(targetOf('0.9'), 0.9)
    t.equal(targetOf('.99'), 0.99)
    for (const bad of ['1', '0', '95%', '1.5', 'x', ''])
      t.throws(() => targetOf(bad), { name: 'UsageError', message: /--target must be a number between 0 and 1/ })
    const dir = t.testdir({ 'spam.judge.yaml': ACCURACY_YAML.replace('key: spam.key.csv\nkey_sample: random\n', '') })
    const result = await cli(['calibrate', 'spam.judge.yaml', '--json'], {}, dir)
    t.equal(result.code, 0, result.stderr)
    t.match(JSON.parse(result.stdout).spam.thresholds, [{ suggested: null, table: [] }])
    t.notOk(existsSync(join(dir, '.judge')), 'no store is created')
    const bad = await cli(['calibrate', 'spam.judge.yaml', '--target', '2'], {}, dir)
    t.match(bad, { code: 2, stderr: /--target must be a number between 0 and 1/ })
  },
)
