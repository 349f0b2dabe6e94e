import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { DATA, ROOT, count, note } from './common.ts'
import { HTTP_PROJECT, MODEL, TOKEN, prepare } from './judge-http.ts'
import { measureLoad, processTree, TOOL, type LoadRequests } from './load.ts'
import { startServerProcess, type ServerProcess } from './processes.ts'

// The system calls each server makes per cache-hit request, counted by strace (Debian's `strace`)
// attached to the running server during a burst of load, after a warm-up that fills its caches.
// The judge server should make the calls the bare server makes (reading the request, writing the
// reply, waiting on epoll) and, besides them, only the disk checks of its one revalidation point:
// a few per second, whatever the load.
// Usage: node bench/syscalls.ts [seconds]

const SECONDS = Number(process.argv[2] ?? 5)

/** Calls per syscall name during one burst, and the requests answered meanwhile. */
interface Counted {
  readonly requests: number
  readonly calls: ReadonlyMap<string, number>
}

async function countDuringLoad(server: ServerProcess, requests: LoadRequests): Promise<Counted> {
  await measureLoad(server.url, () => processTree(server.child.pid!), requests, 32, 3)
  const out = resolve(DATA, `strace-${server.child.pid}.txt`)
  const strace = spawn('strace', ['-f', '-c', '-o', out, '-p', String(server.child.pid)], { stdio: 'ignore' })
  await new Promise((done) => setTimeout(done, 1000))
  const load = await measureLoad(server.url, () => processTree(server.child.pid!), requests, 32, SECONDS)
  const exited = new Promise((done) => strace.once('exit', done))
  strace.kill('SIGINT')
  await exited
  const calls = new Map<string, number>()
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const fields = line.trim().split(/\s+/)
    if (!/^\d/.test(fields[0] ?? '') || fields.length < 5 || fields.at(-1) === 'total') continue
    calls.set(fields.at(-1)!, Number(fields[3]))
  }
  rmSync(out, { force: true })
  return { requests: Math.round(load.rps * SECONDS), calls }
}

function table(judge: Counted, bare: Counted): string {
  const names = [...new Set([...judge.calls.keys(), ...bare.calls.keys()])]
  const per = (c: Counted, name: string) => (c.calls.get(name) ?? 0) / Math.max(1, c.requests)
  names.sort((a, b) => per(judge, b) - per(judge, a))
  const rows = names.map(
    (name) =>
      `| ${name} | ${judge.calls.get(name) ?? 0} | ${per(judge, name).toFixed(3)} | ${bare.calls.get(name) ?? 0} | ${per(bare, name).toFixed(3)} |`,
  )
  return [
    `requests during the burst: judge ${count(judge.requests)}, bare ${count(bare.requests)} (both slowed by strace)`,
    '',
    '| syscall | judge calls | per request | bare calls | per request |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n')
}

if (import.meta.main) {
  if (spawnSync('strace', ['-V']).error) throw new Error('strace is not installed (Debian: apt-get install strace)')
  const requests = await prepare()
  const judge = await startServerProcess(resolve(ROOT, 'src/main.ts'), {
    JUDGE_PROJECTS: HTTP_PROJECT,
    JUDGE_SERVER_TOKEN: TOKEN,
    ENGINE_MODEL: MODEL,
    HOST: '127.0.0.1',
    PORT: '0',
  })
  const body = await (
    await fetch(judge.url + requests.path, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
      body: requests.bodies[0],
    })
  ).text()
  const bare = await startServerProcess(resolve(import.meta.dirname, 'bare-server.ts'), { BARE_BODY: body })
  try {
    note(`strace -f -c on each server during ${SECONDS} s of ${TOOL} -t1 -c32`)
    const counted = { judge: await countDuringLoad(judge, requests), bare: await countDuringLoad(bare, requests) }
    process.stdout.write(table(counted.judge, counted.bare) + '\n')
  } finally {
    await bare.stop()
    await judge.stop()
  }
}
