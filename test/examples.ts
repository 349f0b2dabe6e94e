import t from 'tap'
import { cpSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildExampleStore } from '../examples/build-store.ts'
import { cli } from './helpers/cli.ts'

const SIMULATED = { ENGINE: 'simulated' }

t.test('the example store builds without an engine key: two runs with drift, kept rows and shadow pairs', async (t) => {
  const root = t.testdir({})
  cpSync(resolve(import.meta.dirname, '../examples'), root, { recursive: true, filter: (src) => !src.includes('/.judge') })
  let printed = ''
  const out = { write: (s: string) => (printed += s) }
  t.equal(await buildExampleStore(false, root, out), 0)
  t.match(printed, /spam: 1200 rows[^]*spam: 400 rows/)
  t.ok(existsSync(join(root, 'sms/.judge/store.sqlite')))
  t.equal(await buildExampleStore(false, root, out), 0, 'a built store is left alone')
  const dir = join(root, 'sms')
  const runs = JSON.parse((await cli(['runs', 'spam.judge.yaml', '--json'], {}, dir)).stdout)
  t.same(runs.map((r: { rows: number }) => r.rows), [400, 1200])
  t.same(runs.map((r: { model: string }) => r.model), ['simulated-1', 'simulated-1'], 'the run records say simulated')
  const drift = JSON.parse((await cli(['drift', 'spam.judge.yaml', '--json'], {}, dir)).stdout)
  t.ok(drift.is_spam[1].alert, 'the second run drifts')
  const replay = await cli(['replay', 'candidates/spam-v2.judge.yaml', '--live', 'spam.judge.yaml', '--json'], SIMULATED, dir)
  t.equal(replay.code, 0, replay.stderr)
  t.match(JSON.parse(replay.stdout), { kept: 60, live: { model: 'simulated-1' } })
  const test = await cli(['test', 'spam.judge.yaml', '--json'], SIMULATED, dir)
  t.equal(test.code, 0, test.stderr)
  t.ok(JSON.parse(test.stdout).spam.is_spam.counted > 250, 'the key is answered from the store')
  const [real] = JSON.parse((await cli(['plan', 'spam.judge.yaml', '--json'], {}, dir)).stdout)
  t.equal(real.model, 'jev-1.13.0')
  t.equal(real.ask, real.states * 3, 'the real model finds none of the simulated answers')
})
