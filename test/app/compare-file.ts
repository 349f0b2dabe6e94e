import t from 'tap'
import { join } from 'node:path'
import { judgeData } from '../../src/app/compare-file.ts'
import { loadProject } from '../../src/adapters/files/spec-files.ts'
import { readConfig } from '../../src/config.ts'
import { CostCapError } from '../../src/errors.ts'
import { createRuntime } from '../../src/runtime.ts'
import { setup } from '../helpers/replay-project.ts'

t.test(
  'both specs are judged on the data rows, paired by the live state; above the cap nothing is asked',
  async (t) => {
    const { dir, env, engine, before } = await setup(t, { keep: 0, shadowed: 0 })
    const runtime = createRuntime(readConfig(env, dir))
    t.teardown(() => runtime.close())
    const input = {
      live: loadProject(join(dir, 'spam.judge.yaml')),
      candidate: loadProject(join(dir, 'candidates/spam-v2.judge.yaml')),
      data: join(dir, 'live.csv'),
      label: 'live.csv',
      concurrency: 4,
    }
    await t.rejects(judgeData(runtime, { ...input, cap: 0 }), CostCapError)
    t.equal(engine.requests.length, before, 'refused before asking')
    const done = await judgeData(runtime, { ...input, cap: 1 })
    t.equal(done.rows.length, 10)
    t.same(
      done.rows
        .filter((r) => r.live.is_spam !== r.candidate.is_spam)
        .map((r) => r.state.message)
        .sort(),
      ['msg 3', 'msg 4', 'msg 5'],
    )
    t.match(done, { kept: [], run: null })
  },
)
