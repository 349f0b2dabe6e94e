import t from 'tap'
import { readConfig } from '../../../src/config.ts'
import { observerOf } from '../../../src/http/ops/observer-of.ts'
import { createFakeEngine } from '../../helpers/fake-engine.ts'

t.test(
  'the configuration decides: metrics on by default, off with none, the engine watched either way; the access log goes to standard output',
  async (t) => {
    const on = observerOf(readConfig({}, '/'))
    t.ok(on.metrics)
    t.ok(on.watchEngine(createFakeEngine()).ask)
    on.metrics!.stop()
    const off = observerOf(readConfig({ JUDGE_METRICS: 'off', JUDGE_ACCESS_LOG: 'json' }, '/'))
    t.equal(off.metrics, null)
    t.ok(off.watchEngine(createFakeEngine()).ask, 'the engine watched with metrics off too: its spans and request ids')
    const written: string[] = []
    const write = process.stdout.write
    process.stdout.write = ((chunk: string) => (written.push(chunk), true)) as typeof write
    try {
      const seen = off.begin({ method: 'GET', route: '/healthz', path: '/healthz', headers: {}, requestId: 'id' })
      off.end(seen, { status: 204, bytes: 0, reviewer: null, by: 'full' })
    } finally {
      process.stdout.write = write
    }
    t.equal(written.length, 1)
    t.match(JSON.parse(written[0]), { route: '/healthz', status: 204 })
    t.throws(() => readConfig({ JUDGE_METRICS: 'yes' }, '/'), /JUDGE_METRICS must be on or off, not "yes"/)
    t.throws(() => readConfig({ JUDGE_ACCESS_LOG: 'text' }, '/'), /JUDGE_ACCESS_LOG must be json or off, not "text"/)
  },
)
