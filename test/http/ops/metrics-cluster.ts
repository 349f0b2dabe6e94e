import t from 'tap'
import cluster from 'node:cluster'
import { EventEmitter } from 'node:events'
import type { Worker } from 'node:cluster'
import { readConfig } from '../../../src/config.ts'
import { joinPeers, relayMetrics } from '../../../src/http/ops/metrics-cluster.ts'
import { serveAll } from '../../../src/http/workers.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { NO_PROMTOOL, promtoolCheck, valueOf } from '../../helpers/metrics.ts'

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`waited 30 s for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

t.test("with two workers, any worker's /metrics reports the requests sent to all of them", async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig({ JUDGE_PROJECTS: dir, PORT: '0', JUDGE_WORKERS: '2' }, dir)
  const logs: string[] = []
  const controller = new AbortController()
  const served = serveAll(config, { log: (line) => logs.push(line), signal: controller.signal })
  t.teardown(() => (controller.abort(), served))
  await until(
    () =>
      logs.some((l) => /workers share/.test(l)) &&
      logs.filter((l) => l.startsWith('judge server listening')).length === 2,
    'two workers',
  )
  const url = /workers share (http:\/\/\S+) /.exec(logs.find((l) => /workers share/.test(l))!)![1]
  const SENT = 40
  for (let i = 0; i < SENT; i++) {
    // A new connection each time, so the primary hands requests to both workers.
    const res = await fetch(`${url}/v1/runs?path=spam.judge.yaml`, { headers: { connection: 'close' } })
    t.equal(res.status, 200)
    await res.text()
  }
  for (let scrape = 0; scrape < 4; scrape++) {
    const res = await fetch(`${url}/metrics`, { headers: { connection: 'close' } })
    const text = await res.text()
    t.equal(
      valueOf(text, 'judge_http_requests_total{method="GET",route="/v1/runs",status="200"}'),
      SENT,
      `scrape ${scrape}: every request counted once`,
    )
    t.equal(valueOf(text, 'judge_metrics_workers_missing'), 0)
    t.equal(
      valueOf(text, 'judge_http_requests_total{method="GET",route="/metrics",status="200"}'),
      scrape,
      'and the scrapes before it',
    )
    if (scrape === 0) t.equal(promtoolCheck(text), '', 'promtool passes the sum', { skip: NO_PROMTOOL })
  }
})

/** A worker as relayMetrics sees one: messages both ways. */
function fakeWorker(answer: ((message: any, self: any) => void) | null) {
  const worker = Object.assign(new EventEmitter(), {
    sent: [] as any[],
    connected: true,
    isConnected() {
      return worker.connected
    },
    send(message: any) {
      worker.sent.push(message)
      if (answer) setImmediate(() => answer(message, worker))
      return true
    },
  })
  return worker
}

t.test(
  'the primary answers a gather with what the other workers sent in time, and says how many did not answer',
  async (t) => {
    const asker = fakeWorker(null)
    const quick = fakeWorker((m, self) => self.emit('message', { kind: 'judge-metrics-reply', id: m.id, families: [] }))
    const silent = fakeWorker(null)
    const gone = Object.assign(fakeWorker(null), { connected: false })
    const all = [asker, quick, silent, gone] as unknown as Worker[]
    relayMetrics(asker as unknown as Worker, () => all, 50)
    asker.emit('message', { kind: 'judge-metrics-gather', id: 7 })
    asker.emit('message', { kind: 'something else' })
    await until(() => asker.sent.length > 0, 'the answer')
    t.same(asker.sent, [{ kind: 'judge-metrics-gathered', id: 7, snapshots: [[]], missing: 1 }])
    t.same(gone.sent, [], 'a disconnected worker is not asked')
    const alone = fakeWorker(null)
    relayMetrics(alone as unknown as Worker, () => [alone as unknown as Worker])
    alone.emit('message', { kind: 'judge-metrics-gather', id: 1 })
    t.same(
      alone.sent,
      [{ kind: 'judge-metrics-gathered', id: 1, snapshots: [], missing: 0 }],
      'a lone worker is answered at once',
    )
  },
)

t.test('outside a cluster, or in a process without a channel to a primary, there are no peers to gather', async (t) => {
  t.equal(cluster.isWorker, false)
  for (const clustered of [false, true]) {
    const peers = joinPeers(() => [], clustered)
    t.same(await peers.gather(), { snapshots: [], missing: 0 }, `clustered ${clustered}, no process.send`)
    peers.leave()
  }
})
