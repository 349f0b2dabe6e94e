import t, { type Test } from 'tap'
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import type { WireRequest } from '../src/adapters/system-one/system-one-wire.ts'
import { chosenForSecond } from '../src/core/review/double-review.ts'
import { verdictForms } from './helpers/review-forms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { spamWireAnswer } from './helpers/spam-wire.ts'
import { judgedProject } from './helpers/review-project.ts'

// A team on one queue: ten reviewers against `judge serve --workers 2`, through the review page's
// own requests (its page, its verdict form, the redirect back), each answering the first card it
// is shown with its first button. JUDGE_SLOW=1 (npm run test:slow) gives 300 verdicts over 300
// rows; the everyday run 60 over 150. Each page holds up to 25 cards for its reviewer, so the
// queue is longer than the cards held and answered together.

const ROOT = resolve(import.meta.dirname, '..')
const SLOW = process.env.JUDGE_SLOW === '1'
const ROWS = SLOW ? 300 : 150
const REVIEWERS = 10
const EACH = SLOW ? 30 : 6
const DOUBLE = 0.1
const messages = Array.from({ length: ROWS }, (_, i) => `message number ${i + 1}, on which the model hesitates`)

// The model is unsure of every answer: every row of every question is offered, as unsure.
function answer(body: WireRequest): Record<string, unknown> {
  return spamWireAnswer(body, 0.55, { topic: [0.4, 0.35, 0.25], urgency: [0.4, 0.35, 0.25], score: 0.5 })
}

async function project(t: Test): Promise<string> {
  const files = {
    'spam.judge.yaml': SPAM_YAML + `data: messages.csv\ndouble_review: ${DOUBLE}\n`,
    'messages.csv': stringify([['message'], ...messages.map((m) => [m])]),
  }
  return (await judgedProject(t, files, answer)).dir
}

async function serving(t: Test, dir: string): Promise<{ url: string; output: () => string }> {
  const child = spawn(process.execPath, ['--no-warnings', resolve(ROOT, 'src/cli.ts'), 'serve', '--workers', '2'], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', JUDGE_PROJECTS: dir, HOST: '127.0.0.1', PORT: '0' },
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
    const url = /workers share (http:\/\/\S+) /.exec(output)?.[1]
    if (url) return { url, output: () => output }
    if (child.exitCode !== null) break
    await new Promise((done) => setTimeout(done, 20))
  }
  throw new Error(`judge serve did not start: ${output}`)
}

t.test(
  `${REVIEWERS} reviewers on one server of two workers, ${REVIEWERS * EACH} verdicts: no 409, no row over its plan, no card shown to two at once`,
  async (t) => {
    const dir = await project(t)
    const server = await serving(t, dir)
    const before = (await (await fetch(`${server.url}/v1/review?path=spam.judge.yaml`)).json()) as {
      progress: { left: number }
    }
    t.ok(
      before.progress.left >= REVIEWERS * 25 + REVIEWERS * EACH,
      `${before.progress.left} rows offered, enough for every page held and every verdict`,
    )
    // The cards each reviewer has in front of them: from their page's arrival until they ask for the next page.
    const shown = new Map<string, Set<string>>()
    const statuses: number[] = []
    const refused: string[] = []
    const overlaps: string[] = []
    const empty: string[] = []

    async function page(name: string, path: string): Promise<string> {
      shown.set(name, new Set())
      const res = await fetch(server.url + path)
      const text = await res.text()
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${text.slice(0, 300)}`)
      const cards = new Set(verdictForms(text).map((f) => `${f.fields.question} ${f.fields.state}`))
      for (const [other, theirs] of shown)
        for (const card of cards)
          if (other !== name && theirs.has(card)) overlaps.push(`${card} shown to ${name} and ${other}`)
      shown.set(name, cards)
      return text
    }

    let retried = 0
    async function postVerdict(fields: Record<string, string>): Promise<Response> {
      const res = await fetch(server.url + '/review', {
        method: 'POST',
        redirect: 'manual',
        body: new URLSearchParams(fields),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      if (res.status === 503) await res.arrayBuffer()
      return res
    }

    async function reviewer(name: string): Promise<void> {
      let text = await page(name, `/review?path=spam.judge.yaml&reviewer=${name}`)
      for (let done = 0; done < EACH; done++) {
        const first = verdictForms(text)[0]
        if (first === undefined) {
          empty.push(name)
          return
        }
        shown.get(name)!.delete(`${first.fields.question} ${first.fields.state}`)
        let res = await postVerdict(first.fields)
        // A 503 (the reviews file stayed locked past its wait, on a loaded machine) says try again, as a reviewer would.
        while (res.status === 503) {
          retried += 1
          res = await postVerdict(first.fields)
        }
        const body = await res.text()
        statuses.push(res.status)
        if (res.status !== 303)
          refused.push(
            `${name} ${first.fields.question} ${first.fields.state} ${first.fields.kind}: ${res.status} ${body.match(/<p[^>]*>(.*?)<\/p>/s)?.[1] ?? body.slice(0, 200)}`,
          )
        text = await page(name, res.headers.get('location') ?? `/review?path=spam.judge.yaml&reviewer=${name}`)
      }
    }

    await Promise.all(Array.from({ length: REVIEWERS }, (_, i) => reviewer(`reviewer${i + 1}`)))
    t.same(empty, [], 'no reviewer was left without a card')
    t.equal(statuses.length, REVIEWERS * EACH)
    t.same(refused, [], 'every verdict accepted: no 409')
    t.comment(`verdicts sent again after a 503: ${retried}`)
    t.same(overlaps, [], 'no card shown to two reviewers at once')
    const lines: Record<string, string>[] = parse(readFileSync(join(dir, 'spam.reviews.csv'), 'utf8'), {
      columns: true,
    })
    t.equal(lines.length, REVIEWERS * EACH, 'one line per verdict')
    const count = new Map<string, { n: number; people: Set<string> }>()
    for (const line of lines) {
      const key = `${line.question} ${line.state_hash}`
      const seen = count.get(key) ?? { n: 0, people: new Set<string>() }
      seen.n += 1
      seen.people.add(line.reviewer)
      count.set(key, seen)
    }
    const over = [...count].filter(([key, { n }]) => {
      const [question, state] = key.split(' ')
      return n > (chosenForSecond('spam', question, state, DOUBLE) ? 2 : 1)
    })
    t.same(over, [], 'no row reviewed more often than its plan: once, or twice when drawn for a second review')
    t.ok(
      [...count.values()].every(({ n, people }) => people.size === n),
      'never twice by one reviewer',
    )
    t.notMatch(server.output(), /internal error|locked/i, 'the server logged no failure')
  },
)
