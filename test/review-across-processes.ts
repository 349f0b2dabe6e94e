import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { readVerdicts } from '../src/adapters/files/reviews-file.ts'
import type { WireRequest } from '../src/adapters/system-one/system-one-wire.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { childEnv } from './helpers/cli.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { spamWireAnswer } from './helpers/spam-wire.ts'
import { judgedProject } from './helpers/review-project.ts'

// One verdict per offer, across processes: `judge serve --workers 2` and a second server on the
// same project, each row's verdict (then its undo) posted three times at once, spread over both.
// JUDGE_SLOW=1 (npm run test:slow) takes 100 rows; the everyday run takes fewer.

const ROOT = resolve(import.meta.dirname, '..')
const ROWS = process.env.JUDGE_SLOW === '1' ? 100 : 30
const messages = Array.from(
  { length: ROWS },
  (_, i) => `message number ${i + 1}, which the model and the key disagree on`,
)

// The model is sure every row is spam and the key says none is: each row is a disagreement, offered.
function answer(body: WireRequest): Record<string, unknown> {
  return spamWireAnswer(body, 0.95, { topic: [0.9, 0.05, 0.05] })
}

/** A project whose store holds an answer to every row, each disagreeing with the key. */
async function disagreeing(t: Test): Promise<string> {
  const files = {
    'spam.judge.yaml': SPAM_YAML + 'key: spam.key.csv\ndata: messages.csv\n',
    'spam.key.csv': stringify([['message', 'is_spam'], ...messages.map((m) => [m, 'no'])]),
    'messages.csv': stringify([['message'], ...messages.map((m) => [m])]),
  }
  return (await judgedProject(t, files, answer)).dir
}

/** Starts `node <script> ...args` serving `dir`; resolves with the URL its output names once it listens. */
async function serving(
  t: Test,
  dir: string,
  script: string,
  args: readonly string[],
  listening: RegExp,
): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--no-warnings', resolve(ROOT, script), ...args], {
    cwd: dir,
    env: childEnv({ JUDGE_PROJECTS: dir, HOST: '127.0.0.1', PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (d) => (output += d))
  child.stderr.on('data', (d) => (output += d))
  const exited = new Promise<void>((done) => child.on('close', () => done()))
  t.teardown(async () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    await exited
  })
  for (let waited = 0; waited < 30_000; waited += 20) {
    const url = listening.exec(output)?.[1]
    if (url) return { url, output: () => output }
    if (child.exitCode !== null) break
    await new Promise((done) => setTimeout(done, 20))
  }
  throw new Error(`${script} did not start: ${output}`)
}

/** Posts a form without following the redirect; resolves with the status. */
async function post(url: string, path: string, fields: Record<string, string>): Promise<number> {
  const res = await fetch(url + path, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  await res.arrayBuffer()
  return res.status
}

/** Posts each row's form three times at once, spread over the servers; the statuses per row. */
async function thrice(
  urls: readonly string[],
  path: string,
  forms: readonly Record<string, string>[],
): Promise<number[][]> {
  const sent = forms.map((form, i) => [0, 1, 2].map((j) => post(urls[(i + j) % urls.length], path, form)))
  return Promise.all(sent.map((row) => Promise.all(row)))
}

/** The lines of the reviews file, parsed by its header. */
function reviewLines(dir: string): Record<string, string>[] {
  return parse(readFileSync(join(dir, 'spam.reviews.csv'), 'utf8'), { columns: true })
}

t.test(
  `${ROWS} rows, each given a verdict three times at once over two servers (one of two workers): each recorded once, then undone once`,
  async (t) => {
    const dir = await disagreeing(t)
    const [workers, single] = await Promise.all([
      serving(t, dir, 'src/cli.ts', ['serve', '--workers', '2'], /workers share (http:\/\/\S+) /),
      serving(t, dir, 'src/main.ts', [], /listening on (http:\/\/\S+),/),
    ])
    const urls = [workers.url, single.url]
    const base = { path: 'spam.judge.yaml', node: 'spam', question: 'is_spam', audit: '0', reviewer: 'ann' }
    const hashes = messages.map((message) => stateHash({ message }))

    const verdicts = await thrice(
      urls,
      '/review',
      hashes.map((state) => ({ ...base, state, kind: 'disagreement', verdict: 'key_right' })),
    )
    t.same(
      verdicts.map((statuses) => statuses.toSorted()),
      hashes.map(() => [303, 409, 409]),
      'one verdict accepted per row, the others 409',
    )
    const recorded = reviewLines(dir)
    t.equal(recorded.length, ROWS, 'one line per row')
    t.same(recorded.map((line) => line.state_hash).toSorted(), hashes.toSorted(), 'no row twice')
    t.equal(
      (await readVerdicts(join(dir, 'spam.reviews.csv'))).size,
      ROWS,
      "the file reads, every row's verdict standing",
    )

    const reviewedAt = new Map(recorded.map((line) => [line.state_hash, line.reviewed_at]))
    const undos = await thrice(
      urls,
      '/review/undo',
      hashes.map((state) => ({ ...base, state, reviewed_at: reviewedAt.get(state)! })),
    )
    t.same(
      undos.map((statuses) => statuses.toSorted()),
      hashes.map(() => [303, 409, 409]),
      'one undo accepted per row, the others 409',
    )
    const lines = reviewLines(dir)
    const retractions = lines.filter((line) => line.verdict === 'retracted')
    t.equal(lines.length, 2 * ROWS, 'one retraction line per row beside its verdict')
    t.same(retractions.map((line) => line.state_hash).toSorted(), hashes.toSorted(), 'no row retracted twice')
    t.equal((await readVerdicts(join(dir, 'spam.reviews.csv'))).size, 0, 'the file reads, no verdict standing')
    t.equal(readFileSync(join(dir, 'spam.reviews.csv'), 'utf8').match(/^reviewed_at,/gm)?.length, 1, 'one header')
    for (const server of [workers, single])
      t.notMatch(server.output(), /internal error|locked/i, 'no server logged a failure')
  },
)
