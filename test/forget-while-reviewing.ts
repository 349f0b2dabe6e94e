import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { appendVerdict, readReviews } from '../src/adapters/files/reviews-file.ts'
import type { WireRequest } from '../src/adapters/system-one/system-one-wire.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { cli, spawnCli } from './helpers/cli.ts'
import { startJudgeServer } from './helpers/judge-server.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'
import { spamWireAnswer } from './helpers/spam-wire.ts'

// The server appends verdicts in a loop while `judge forget`, in processes of its own, rewrites the
// same reviews file again and again: the rewrite and the appends share the file's lock, so no
// verdict appended meanwhile is lost, none is written twice, and every forgotten line is emptied.

const ROWS = 48
const SECRETS = 6
const messages = Array.from({ length: ROWS }, (_, i) => `row ${i + 1}, which the model and the key disagree on`)
const secrets = Array.from(
  { length: SECRETS },
  (_, i) => `secret ${i + 1}: Dana's phone is 555-01${String(i).padStart(2, '0')}`,
)

function answer(body: WireRequest): Record<string, unknown> {
  return spamWireAnswer(body, 0.95, { topic: [0.9, 0.05, 0.05] })
}

t.test(
  'verdicts appended by the server while judge forget rewrites the reviews file: none lost, none twice',
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': `${SPAM_YAML}key: spam.key.csv\ndata: messages.csv\n`,
      'spam.key.csv': stringify([['message', 'is_spam'], ...messages.map((m) => [m, 'no'])]),
      'messages.csv': stringify([['message'], ...messages.map((m) => [m])]),
    })
    const engine = await startSystemOneServer({ expectKey: 'k', answer })
    t.teardown(() => engine.close())
    t.equal(
      (await cli(['run', 'spam.judge.yaml'], { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }, dir))
        .code,
      0,
    )
    const file = join(dir, 'spam.reviews.csv')
    for (const message of secrets) {
      await appendVerdict(file, {
        reviewed_at: '2026-01-01T00:00:00.000',
        reviewer: 'zoe',
        judgment: 'spam',
        question: 'topic',
        state_hash: stateHash({ message }),
        kind: 'spot_check',
        verdict: 'confirmed',
        labels: ['personal'],
        model_label: 'personal',
        key_label: null,
        state: { message },
        stratum: 'confident',
        rank: 1,
      })
    }
    const server = await startJudgeServer(t, dir)
    const base = {
      path: 'spam.judge.yaml',
      node: 'spam',
      question: 'is_spam',
      audit: '0',
      kind: 'disagreement',
      verdict: 'key_right',
    }
    const post = async (message: string) => {
      const body = new URLSearchParams({ ...base, state: stateHash({ message }), reviewer: 'ann' })
      const res = await fetch(`${server.url}/review`, {
        method: 'POST',
        redirect: 'manual',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      await res.arrayBuffer()
      return res.status
    }
    let forgetting = true
    let during = 0
    // Two verdicts in flight at a time, paced so that they keep coming while the forgets run.
    const reviewing = Promise.all(
      [0, 1].map(async (lane) => {
        for (let i = lane; i < ROWS; i += 2) {
          t.equal(await post(messages[i]), 303, `verdict on row ${i + 1}`)
          if (!forgetting) continue
          during += 1
          await new Promise((done) => setTimeout(done, 100))
        }
      }),
    )
    const forgets: { code: number; stdout: string; stderr: string }[] = []
    for (const message of secrets)
      forgets.push(
        await spawnCli(['forget', 'spam.judge.yaml', '--state', stateHash({ message }), '--yes', '--json'], {}, dir),
      )
    forgetting = false
    await reviewing
    t.comment(`${during} of ${ROWS} verdicts appended while ${forgets.length} forgets rewrote the file`)

    for (const result of forgets) {
      t.ok(result.code === 0 || /write-ahead log/.test(result.stderr + result.stdout), result.stderr)
      t.match(
        JSON.parse(result.stdout),
        { reviews_files: [{ file: 'spam.reviews.csv', lines: 1 }] },
        'each forget rewrote its line',
      )
    }
    const lines: Record<string, string>[] = parse(readFileSync(file, 'utf8'), { columns: true })
    t.equal(lines.length, SECRETS + ROWS, 'every line once: the secrets and each verdict posted')
    t.same(
      lines
        .filter((l) => l.reviewer === 'ann')
        .map((l) => l.state_hash)
        .toSorted(),
      messages.map((message) => stateHash({ message })).toSorted(),
      'no verdict lost, none twice',
    )
    t.ok(
      lines
        .filter((l) => l.reviewer === 'ann')
        .every((l) => JSON.parse(l.state).message === messages.find((m) => stateHash({ message: m }) === l.state_hash)),
      'the verdicts keep their states',
    )
    t.same(
      lines.filter((l) => l.reviewer === 'zoe').map((l) => l.state),
      secrets.map(() => '{}'),
      "every secret's state is emptied",
    )
    t.notOk(readFileSync(file, 'utf8').includes('555-01'), 'no secret is left in the file')
    t.equal((await readReviews(file)).size, SECRETS + ROWS, 'the file reads')
    t.equal(readFileSync(file, 'utf8').match(/^reviewed_at,/gm)?.length, 1, 'one header')
    t.notMatch(server.logs.join('\n'), /internal error|locked/i)
  },
)
