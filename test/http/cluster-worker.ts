import t from 'tap'
import { fork, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readConfig } from '../../src/config.ts'
import { WORKER_ENTRY, type WorkerOrder } from '../../src/http/workers.ts'
import { SPAM_YAML } from '../helpers/specs.ts'

/** A worker process as the primary starts one: the entry module, an IPC channel, its log collected. */
function startWorker(order: WorkerOrder): { child: ChildProcess; log: () => string; exited: Promise<number | null> } {
  const child = fork(WORKER_ENTRY, [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], execArgv: ['--no-warnings'] })
  let text = ''
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.send(order)
  return { child, log: () => text, exited }
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 20))
}

t.test('a worker serves the configuration its primary sends, and exits 0 on SIGTERM', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig({ JUDGE_PROJECTS: dir, PORT: '0' }, dir)
  const worker = startWorker({ kind: 'serve', config })
  t.teardown(() => void worker.child.kill('SIGKILL'))
  await until(() => /listening on http:\/\/\S+/.test(worker.log()))
  const url = /listening on (http:\/\/[\w.:]+)/.exec(worker.log())![1]
  const reply = await fetch(`${url}/v1/runs?path=spam.judge.yaml`)
  t.equal(reply.status, 200, 'it answers requests')
  worker.child.kill('SIGTERM')
  t.equal(await worker.exited, 0)
})

t.test("a worker that cannot listen says why and exits with the error's status", async (t) => {
  const taken = createServer()
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve))
  t.teardown(() => taken.close())
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const config = readConfig({ JUDGE_PROJECTS: dir, PORT: String((taken.address() as AddressInfo).port) }, dir)
  const worker = startWorker({ kind: 'serve', config })
  t.teardown(() => void worker.child.kill('SIGKILL'))
  const code = await worker.exited
  t.not(code, 0)
  t.match(worker.log(), /judge server: cannot listen: .* is already in use/)
})
