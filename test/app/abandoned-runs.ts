import t from 'tap'
import { spawnSync } from 'node:child_process'
import {
  ABANDONED_MS,
  isAbandoned,
  processAlive,
  settleAbandoned,
  settleWhileReading,
  THIS_PROCESS,
} from '../../src/app/abandoned-runs.ts'
import type { OpenRun, RunStore } from '../../src/ports/run-store.ts'
import { count, run } from '../helpers/contracts/run-store.ts'
import { createMemoryStore } from '../helpers/memory-store.ts'

const NOW = new Date('2026-11-22T10:00:00.000Z')
const here = { pid: 100, host: 'box', alive: (pid: number) => pid === 100 || pid === 200 }

function open(over: Partial<OpenRun> & { id: string }): OpenRun {
  const { id, ...rest } = over
  return {
    run: run({ run_id: id, status: 'running', asked: 6, cost: 0.0006 }),
    counts: [count(id, 'is_spam', 'yes', 2)],
    pid: 300,
    host: 'box',
    heartbeat_at: '2026-11-22T09:59:30.000',
    ...rest,
  }
}

t.test(
  'a run is abandoned when its process on this machine is gone, or when it has been silent too long',
  async (t) => {
    t.equal(isAbandoned(open({ id: 'r', pid: 300 }), NOW, here), true, 'its process is gone')
    t.equal(isAbandoned(open({ id: 'r', pid: 200 }), NOW, here), false, 'its process lives')
    t.equal(
      isAbandoned(open({ id: 'r', pid: 300, host: 'other' }), NOW, here),
      false,
      "another machine's process cannot be seen",
    )
    const silent = new Date(NOW.getTime() - ABANDONED_MS - 1000).toISOString().replace(/Z$/, '')
    t.equal(
      isAbandoned(open({ id: 'r', pid: 200, heartbeat_at: silent }), NOW, here),
      true,
      'a pid reused by another process',
    )
    t.equal(isAbandoned(open({ id: 'r', host: 'other', heartbeat_at: silent }), NOW, here), true)
  },
)

t.test(
  'abandoned runs are recorded failed: interrupted with their spend, finished when last written; live ones stay open',
  async (t) => {
    const store = createMemoryStore()
    store.putOpenRun(open({ id: 'dead' }))
    store.putOpenRun(open({ id: 'live', pid: 200 }))
    t.same(settleAbandoned(store, NOW, here), ['dead'])
    t.match(store.getRun('dead'), {
      status: 'failed: interrupted',
      asked: 6,
      cost: 0.0006,
      finished_at: '2026-11-22T09:59:30.000',
    })
    t.same(
      store.runLabelCounts('spam').map((c) => [c.run_id, c.label, c.count]),
      [['dead', 'yes', 2]],
    )
    t.same(
      store.openRuns().map((o) => o.run.run_id),
      ['live'],
    )
    t.same(settleAbandoned(store, NOW, here), [], 'a run is recorded once')
  },
)

t.test('a run another process records first is left to it', async (t) => {
  const store = createMemoryStore()
  store.putOpenRun(open({ id: 'dead' }))
  // Another process closes it between this one's look and its close.
  const racing: RunStore = {
    ...store,
    openRuns: () => {
      const all = store.openRuns()
      store.closeOpenRun(run({ run_id: 'dead', status: 'failed: interrupted' }), [])
      return all
    },
  }
  t.same(settleAbandoned(racing, NOW, here), [])
  t.equal(store.listRuns(['spam'], 50).length, 1)
})

t.test('a reader that cannot write leaves the runs open and reads on', async (t) => {
  const store = createMemoryStore()
  store.putOpenRun(open({ id: 'dead' }))
  const readOnly: RunStore = {
    ...store,
    closeOpenRun: () => {
      throw new Error('attempt to write a readonly database')
    },
  }
  t.doesNotThrow(() => settleWhileReading(readOnly, NOW, here))
  t.equal(store.openRuns().length, 1)
  settleWhileReading(null, NOW, here)
  settleWhileReading(store, NOW, here)
  t.equal(store.getRun('dead')?.status, 'failed: interrupted')
})

t.test('a process is alive while it runs and not once it has exited', async (t) => {
  t.equal(processAlive(THIS_PROCESS.pid), true)
  const exited = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
  t.equal(processAlive(Number(exited.stdout)), false)
  t.equal(processAlive(1), true, 'the init process lives')
})

t.test('a process of another user lives: signalling it is refused, not failed', async (t) => {
  const refused = Object.assign(new Error('kill EPERM'), { code: 'EPERM' })
  const kill = process.kill
  process.kill = () => {
    throw refused
  }
  let alive: boolean
  try {
    alive = processAlive(4242)
  } finally {
    process.kill = kill
  }
  t.equal(alive, true)
})
