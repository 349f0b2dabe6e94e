import t from 'tap'
import cluster from 'node:cluster'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { parse } from 'csv-parse/sync'
import { readVerdicts } from '../src/adapters/files/reviews-file.ts'
import { readConfig } from '../src/config.ts'
import { serveAll } from '../src/http/workers.ts'
import { damagePages } from './helpers/damage.ts'
import { fillDisk, mountProblem, mountTmpfs } from './helpers/mounts.ts'
import { verdictForms } from './helpers/review-forms.ts'
import { SIMULATED, STORED_MESSAGE, storeProject } from './helpers/store-project.ts'

// A soak of the store's troubles, in `npm run test:slow` (bounded: about 25 s of traffic). A server
// with two workers serves the example project from a small tmpfs while clients browse, judge rows
// and post verdicts; meanwhile the store's pages are damaged and put right, then the disk is filled
// and freed. However the store fares, no answer is a 500, no worker exits, every verdict the server
// accepted is in the reviews file, and the server serves again at the end.

const CANNOT_MOUNT = mountProblem() ?? false
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** What the clients saw: every status, the 500s and 422s with their message, and the verdicts accepted (a 303). */
interface Seen {
  readonly statuses: Map<number, number>
  readonly failures: string[]
  readonly troubles: Set<string>
  readonly accepted: { reviewer: string; question: string; state: string }[]
}

async function request(
  url: string,
  seen: Seen,
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; text: string }> {
  const res = await fetch(url + path, { redirect: 'manual', ...init })
  const text = await res.text()
  seen.statuses.set(res.status, (seen.statuses.get(res.status) ?? 0) + 1)
  if ((res.status >= 500 && res.status !== 503) || res.status === 422)
    seen.failures.push(
      `${res.status} ${init.method ?? 'GET'} ${path}: ${/class="error">([^<]*)/.exec(text)?.[1] ?? text.slice(0, 200)}`,
    )
  for (const trouble of ['is damaged', 'the disk is full'])
    if (res.status === 503 && text.includes(trouble)) seen.troubles.add(trouble)
  return { status: res.status, text }
}

/** One client: a reviewer who reads the queue and posts a verdict, looks at pages, and judges rows, until `stop`. */
async function client(url: string, n: number, seen: Seen, stop: AbortSignal): Promise<void> {
  const reviewer = `soak${n}`
  const spec = 'path=sms/spam.judge.yaml'
  const judge = (message: string) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ path: 'sms/spam.judge.yaml', row: { message } }),
  })
  for (let i = 0; !stop.aborted; i++) {
    const page = await request(url, seen, `/review?${spec}&reviewer=${reviewer}`)
    const form = page.status === 200 ? verdictForms(page.text)[0] : undefined
    if (form) {
      const body = new URLSearchParams(form.fields).toString()
      const posted = await request(url, seen, '/review', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      if (posted.status === 303)
        seen.accepted.push({ reviewer, question: form.fields.question, state: form.fields.state })
    }
    await request(url, seen, ['/', `/runs?${spec}`, `/accuracy?${spec}`, `/v1/runs?${spec}`][i % 4])
    await request(url, seen, '/v1/judge', judge(i % 2 === 0 ? STORED_MESSAGE : `soak row ${n}-${i}`))
  }
}

/** Folds the log into the store file, so that putting damaged bytes back leaves it as it was. */
function checkpoint(file: string): void {
  const db = new DatabaseSync(file, { timeout: 5000 })
  try {
    for (let tries = 0; tries < 50; tries++) {
      const { busy, log, checkpointed } = db.prepare('PRAGMA wal_checkpoint(FULL)').get() as {
        busy: number
        log: number
        checkpointed: number
      }
      if (busy === 0 && log === checkpointed) return
    }
  } finally {
    db.close()
  }
}

t.test(
  'a store damaged, filled and freed under traffic and verdicts: no 500, no worker lost, every accepted verdict kept, and serving at the end',
  { skip: CANNOT_MOUNT },
  async (t) => {
    const root = mountTmpfs(t, 24 << 20)
    const project = await storeProject(root)
    const config = readConfig(
      { ...SIMULATED, JUDGE_PROJECTS: root, PORT: '0', HOST: '127.0.0.1', JUDGE_WORKERS: '2' },
      root,
    )
    const logs: string[] = []
    const controller = new AbortController()
    const served = serveAll(config, { log: (line) => logs.push(line), signal: controller.signal })
    t.teardown(() => controller.abort())
    for (const deadline = Date.now() + 30_000; !logs.some((line) => / workers share /.test(line)); ) {
      if (Date.now() > deadline) throw new Error('the workers did not listen')
      await sleep(20)
    }
    const url = /workers share (http:\/\/\S+) /.exec(logs.find((line) => / workers share /.test(line))!)![1]
    const pids = Object.values(cluster.workers ?? {})
      .map((w) => w!.process.pid)
      .sort()
    const seen: Seen = { statuses: new Map(), failures: [], troubles: new Set(), accepted: [] }
    const stop = new AbortController()
    const clients = [1, 2, 3].map((n) => client(url, n, seen, stop.signal))
    await sleep(3000)
    checkpoint(project.store)
    const damage = damagePages(project.store)
    await sleep(5000)
    damage.restore()
    await sleep(4000)
    const filler = fillDisk(root)
    await sleep(5000)
    rmSync(filler)
    await sleep(5000)
    stop.abort()
    await Promise.all(clients)
    t.same(seen.failures, [], 'no answer was a 500, nor a 422 for a reviews file read while a line was cut short')
    t.same(
      [...seen.troubles].sort(),
      ['is damaged', 'the disk is full'],
      'both troubles were answered 503, naming them',
    )
    t.ok(
      seen.accepted.length > 10,
      `${seen.accepted.length} verdicts accepted; statuses ${JSON.stringify([...seen.statuses].sort())}`,
    )
    const file = join(project.dir, 'spam.reviews.csv')
    const rows: Record<string, string>[] = parse(readFileSync(file), { columns: true })
    const kept = new Set(rows.map((r) => `${r.reviewer} ${r.question} ${r.state_hash}`))
    t.same(
      seen.accepted.filter((v) => !kept.has(`${v.reviewer} ${v.question} ${v.state}`)),
      [],
      'every accepted verdict is in the reviews file',
    )
    await t.resolves(readVerdicts(file), 'whose every line reads')
    t.same(
      Object.values(cluster.workers ?? {})
        .map((w) => w!.process.pid)
        .sort(),
      pids,
      'the same two workers serve',
    )
    t.notMatch(logs.join('\n'), /exited|internal error/)
    const after = { statuses: new Map(), failures: [], troubles: new Set(), accepted: [] } satisfies Seen
    t.equal(
      (await request(url, after, '/v1/runs?path=sms/spam.judge.yaml')).status,
      200,
      'the server serves at the end',
    )
    t.equal((await request(url, after, '/review?path=sms/spam.judge.yaml&reviewer=soak1')).status, 200)
    const judged = await request(url, after, '/v1/judge', {
      method: 'POST',
      body: JSON.stringify({ path: 'sms/spam.judge.yaml', row: { message: 'a row after the soak' } }),
    })
    t.equal(judged.status, 200, 'and stores new answers')
    controller.abort()
    t.equal(await served, 0)
  },
)
