import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import autocannon from 'autocannon'
import { createFakeEngine } from '../test/helpers/fake-engine.ts'
import { DATA, PROJECT, ROOT, SPEC, count, freshStore, ms, note, report } from './common.ts'
import { ensureInputs } from './generate.ts'
import { runInProcess } from './in-process.ts'
import { startServerProcess } from './processes.ts'

const TOKEN = 'soak-token-0123456789'
const MODEL = 'jev-1.13.0'
const SECONDS = Number(process.env.SOAK_SECONDS ?? 30)
/** A first round, not judged, that brings the server to its steady state (V8's heap, malloc's arenas, SQLite's cache). */
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? 30)
const CONNECTIONS = 32

/** Resident memory of a process in MB, from /proc. */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024
}

/**
 * 32 clients on cache hits of POST /v1/judge for 30 s against the server in its own process,
 * twice in a row after a 30 s warm-up round: every response must be a 200, and the server's
 * memory, sampled every second, must settle: the second round may not take the resident set more
 * than 10% above where the first round left it (a leak of a few bytes per request would, at the
 * two million or so requests a round now answers).
 */
export async function benchSoak() {
  const inputs = await ensureInputs()
  const store = freshStore('soak')
  const sample = resolve(DATA, 'soak-rows.csv')
  writeFileSync(sample, readFileSync(inputs.rows1600, 'utf8').split('\n').slice(0, 257).join('\n') + '\n')
  await runInProcess(sample, { JUDGE_STORE: store, ENGINE_MODEL: MODEL }, createFakeEngine())
  const server = await startServerProcess(resolve(ROOT, 'src/main.ts'), {
    JUDGE_PROJECTS: PROJECT,
    JUDGE_STORE: store,
    JUDGE_SERVER_TOKEN: TOKEN,
    ENGINE_MODEL: MODEL,
    HOST: '127.0.0.1',
    PORT: '0',
  })
  const pid = server.child.pid!
  const messages = readFileSync(sample, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) =>
      line
        .slice(line.indexOf(',') + 1)
        .replace(/^"|"$/g, '')
        .replaceAll('""', '"'),
    )
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }
  const requests = messages.map((message) => ({
    method: 'POST' as const,
    path: '/v1/judge',
    headers,
    body: JSON.stringify({ path: SPEC, row: { message } }),
  }))
  const samples: number[] = [rssMb(pid)]
  const timer = setInterval(() => samples.push(rssMb(pid)), 1000)
  try {
    note(`warming up: ${CONNECTIONS} connections for ${WARMUP_SECONDS} s`)
    const warmup =
      WARMUP_SECONDS > 0
        ? [
            await autocannon({
              url: server.url,
              connections: CONNECTIONS,
              duration: WARMUP_SECONDS,
              requests,
              timeout: 10,
            }),
          ]
        : []
    const start = samples.push(rssMb(pid))
    const rounds = []
    const ends: number[] = []
    for (const round of [1, 2]) {
      note(`soaking, round ${round}: ${CONNECTIONS} connections for ${SECONDS} s`)
      rounds.push(
        await autocannon({ url: server.url, connections: CONNECTIONS, duration: SECONDS, requests, timeout: 10 }),
      )
      ends.push(samples.push(rssMb(pid)))
    }
    clearInterval(timer)
    const firstEnd = samples[ends[0] - 1]
    const peak = Math.max(...samples.slice(ends[0]))
    // An error in the warm-up fails the bench too: every response must be a 200.
    const bad = [...warmup, ...rounds].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0)
    const total = rounds.reduce((n, r) => n + r.requests.total, 0)
    report({
      bench: 'soak',
      bar: `${CONNECTIONS} clients on cache hits for ${SECONDS} s: no error, memory settles`,
      figure: `${count(total)} requests in two rounds, ${bad} errors or non-2xx; RSS ${firstEnd.toFixed(0)} MB after round 1, at most ${peak.toFixed(0)} MB in round 2`,
      reference: `RSS ${samples[0].toFixed(0)} MB before the load, ${samples[start - 1].toFixed(0)} MB after the ${WARMUP_SECONDS} s warm-up`,
      ratio: `round 2 peak / round 1 end: ${(peak / firstEnd).toFixed(2)} (bar 1.10)`,
      pass: bad === 0 && peak <= firstEnd * 1.1,
      details: [
        `p99 ${ms(Math.max(...rounds.map((r) => r.latency.p99)))}, ${count(total / (2 * SECONDS))} req/s`,
        `RSS per second (MB): ${samples.map((s) => s.toFixed(0)).join(' ')}`,
      ],
    })
  } finally {
    clearInterval(timer)
    await server.stop()
  }
}

if (import.meta.main) await benchSoak()
