import t from 'tap'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { PROBABILITY_SOURCES } from '../../src/core/probability-sources.ts'
import { ROOT } from '../helpers/cli.ts'

t.test('every way an answer’s p can be obtained is named once and explained where users read of it', async (t) => {
  t.equal(new Set(PROBABILITY_SOURCES).size, PROBABILITY_SOURCES.length)
  const engine = readFileSync(resolve(ROOT, 'docs/engine.md'), 'utf8')
  const section = engine.slice(engine.indexOf('## Where p comes from'))
  t.ok(section.length < engine.length, 'docs/engine.md has a section "Where p comes from"')
  for (const source of PROBABILITY_SOURCES) t.match(section, `\`${source}\``, `docs/engine.md explains \`${source}\``)
})
