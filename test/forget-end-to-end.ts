import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { stringify } from 'csv-stringify/sync'
import type { WireRequest } from '../src/adapters/system-one/system-one-wire.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { cli } from './helpers/cli.ts'
import { startJudgeServer, type JudgeServer } from './helpers/judge-server.ts'
import { pragma } from './helpers/pragma.ts'
import { verdictForms } from './helpers/review-forms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'
import { spamWireAnswer } from './helpers/spam-wire.ts'

// A row whose text is a unique marker goes through everything that keeps values: a run, a kept
// row, a shadow, verdicts (with an undo). After `judge forget --yes`, its bytes are nowhere in the
// store, its log or the reviews file, the store is sound, and every figure is what it was.

const MARKER = 'zq-forget-marker-4c1e9b7a-Dana-Elm-Street'
const marker = stateHash({ message: MARKER })
const ROWS = [
  { message: MARKER, yes: 0.55, key: '' },
  { message: 'WINNER! Claim your prize now, call 09061701461', yes: 0.95, key: 'yes' },
  { message: 'See you at lunch tomorrow?', yes: 0.8, key: 'no' },
  ...Array.from({ length: 30 }, (_, i) => ({
    message: `plain message number ${i + 1}`,
    yes: 0.1,
    key: i < 3 ? 'no' : '',
  })),
]
const TOKEN = 'tok-e2e-forget'
const AUTH = { authorization: `Bearer ${TOKEN}` }

function answer(body: WireRequest): Record<string, unknown> {
  return spamWireAnswer(body, ROWS.find((r) => r.message === body.state.message)?.yes ?? 0.1)
}

/** Every file under a folder, its data files and answer key aside (the user's own, which judge never edits). */
function judgeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && !/messages\.csv$|spam\.key\.csv$|\.judge\.yaml$/.test(f))
}

/** What the store holds, table by table, in a fixed order. */
function dump(file: string): Record<string, unknown[]> {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const all = (sql: string) =>
      db
        .prepare(sql)
        .all()
        .map((row) => ({ ...row }))
    return {
      answers: all('SELECT * FROM _judge_answers ORDER BY model, state_hash, fingerprint'),
      states: all('SELECT state_hash, state FROM _judge_states ORDER BY state_hash'),
      runs: all('SELECT * FROM _judge_runs ORDER BY run_id'),
      labels: all('SELECT * FROM _judge_run_labels ORDER BY run_id, question, label'),
      runStates: all('SELECT * FROM _judge_run_states ORDER BY run, state_hash'),
      kept: all('SELECT * FROM _judge_kept ORDER BY judgment, state_hash'),
      shadows: all('SELECT * FROM _judge_shadows ORDER BY state_hash, question'),
    }
  } finally {
    db.close()
  }
}

async function postForm(server: JudgeServer, path: string, fields: Record<string, string>): Promise<number> {
  const res = await fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...AUTH },
  })
  await res.arrayBuffer()
  return res.status
}

t.test(
  "after judge forget --yes the marker's bytes are gone everywhere judge keeps them, and every figure is unchanged",
  async (t) => {
    const dir = t.testdir({
      'spam.judge.yaml': `${SPAM_YAML}key: spam.key.csv\ndata: messages.csv\nunsure_below: 0.2\n`,
      'spam.key.csv': stringify([
        ['message', 'is_spam'],
        ...ROWS.filter((r) => r.key !== '').map((r) => [r.message, r.key]),
      ]),
      'messages.csv': stringify([['message'], ...ROWS.map((r) => [r.message])]),
      candidates: { 'spam.judge.yaml': SPAM_YAML.replace('unsolicited advertising or a scam?', 'spam?') },
    })
    const engine = await startSystemOneServer({ expectKey: 'k', answer })
    t.teardown(() => engine.close())
    const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
    t.equal((await cli(['run', 'spam.judge.yaml'], env, dir)).code, 0, 'a run')
    const server = await startJudgeServer(t, dir, { ...env, JUDGE_SERVER_TOKEN: TOKEN })
    const judge = (extra: object) =>
      server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: MARKER }, ...extra }, AUTH)
    t.equal((await judge({ log: true })).status, 200, 'a kept row')
    t.equal((await judge({ shadow: 'candidates' })).status, 200, 'a shadow')
    await server.running.handler.idle()

    const page = await server.get('/review?path=spam.judge.yaml&reviewer=ann&kind=unsure', AUTH)
    t.ok(page.text.includes(MARKER), 'the review card shows the row')
    const form = verdictForms(page.text).find(
      (f) => f.fields.state === marker && f.fields.question === 'is_spam' && f.button === 'label is right',
    )!
    t.equal(await postForm(server, '/review', form.fields), 303, 'a verdict')
    const whole = await server.get('/review?path=spam.judge.yaml&reviewer=ann', AUTH)
    const other = verdictForms(whole.text).find(
      (f) => f.fields.kind === 'disagreement' && f.button === 'answer key is right',
    )
    t.equal(await postForm(server, '/review', { ...other!.fields, reviewer: 'ann' }), 303, 'a verdict on another row')
    const saved = readFileSync(join(dir, 'spam.reviews.csv'), 'utf8').split('\n')[1].split(',')[0]
    t.equal(
      await postForm(server, '/review/undo', {
        path: 'spam.judge.yaml',
        node: 'spam',
        reviewer: 'ann',
        audit: '30',
        question: 'is_spam',
        state: marker,
        reviewed_at: saved,
      }),
      303,
      'an undo',
    )
    t.equal(await postForm(server, '/review', { ...form.fields, reviewer: 'bob' }), 303, 'a verdict again')

    const store = join(dir, '.judge', 'store.sqlite')
    const reviews = join(dir, 'spam.reviews.csv')
    const before = {
      test: JSON.parse((await cli(['test', 'spam.judge.yaml', '--json'], env, dir)).stdout),
      accuracy: (await server.get('/v1/accuracy?path=spam.judge.yaml', AUTH)).body,
      runs: (await server.get('/v1/runs?path=spam.judge.yaml', AUTH)).body,
      runsPage: (await server.get('/v1/pages/runs?path=spam.judge.yaml', AUTH)).body,
      store: dump(store),
      lines: readFileSync(reviews, 'utf8').split('\n'),
    }
    t.ok(
      before.store.kept.length === 1 &&
        before.store.shadows.length > 0 &&
        before.lines.filter((l) => l.includes(MARKER)).length === 3,
      'kept, shadowed and reviewed',
    )
    const runId = before.runs.find((r: { command: string }) => r.command === 'run').run_id
    const runRow = async () =>
      (await server.get(`/v1/pages/runs/${runId}?path=spam.judge.yaml&page=1`, AUTH)).body.rows.find(
        (r: { state_hash: string }) => r.state_hash === marker,
      )
    t.same((await runRow())?.state, { message: MARKER })

    const forgot = await cli(
      ['forget', 'spam.judge.yaml', '--row', JSON.stringify({ message: MARKER }), '--yes', '--json'],
      {},
      dir,
    )
    t.equal(forgot.code, 0, forgot.stderr)
    t.match(JSON.parse(forgot.stdout), {
      states: [{ state_hash: marker, values: true, kept_rows: 1, review_lines: 3 }],
      log_cleared: true,
    })

    const holding = judgeFiles(dir).filter((f) => readFileSync(f).includes(MARKER))
    t.same(holding, [], 'no file judge keeps holds the marker: store, log, reviews file, locks')
    t.ok(judgeFiles(dir).includes(store) && judgeFiles(dir).includes(reviews))
    t.equal(pragma(store, 'integrity_check'), 'ok')

    const after = dump(store)
    t.same(after.answers, before.store.answers, "every answer stays, the marker's too")
    t.same(
      [after.runs, after.labels, after.runStates],
      [before.store.runs, before.store.labels, before.store.runStates],
      'runs, label counts and row lists stay',
    )
    t.same(
      after.states,
      before.store.states.filter((s) => (s as { state_hash: string }).state_hash !== marker),
      "every other row's values stay",
    )
    t.same(
      [after.kept, after.shadows],
      [[], before.store.shadows],
      'its kept row goes; its shadow pairs (labels by hash) stay',
    )
    const lines = readFileSync(reviews, 'utf8').split('\n')
    t.same(
      lines.filter((l) => !l.includes(marker)),
      before.lines.filter((l) => !l.includes(marker)),
      'other lines byte for byte',
    )
    t.same(
      lines.filter((l) => l.includes(marker)),
      before.lines.filter((l) => l.includes(marker)).map((l) => l.replace(/"\{""message"":""[^"]*""\}"/, '{}')),
      "the marker's lines: the state cell is {}",
    )

    t.same(
      (await server.get('/v1/accuracy?path=spam.judge.yaml', AUTH)).body,
      before.accuracy,
      '/accuracy: the same figures',
    )
    t.same((await server.get('/v1/runs?path=spam.judge.yaml', AUTH)).body, before.runs, '/runs: the same runs')
    t.same(
      (await server.get('/v1/pages/runs?path=spam.judge.yaml', AUTH)).body,
      before.runsPage,
      'the runs page: the same figures',
    )
    t.same(
      JSON.parse((await cli(['test', 'spam.judge.yaml', '--json'], env, dir)).stdout),
      before.test,
      'judge test: the same scores',
    )
    t.equal((await runRow())?.state, null, 'the server no longer shows the values on the run page')
    t.notOk(
      (await server.get('/review?path=spam.judge.yaml&reviewer=cy', AUTH)).text.includes(MARKER),
      'nor on a review card',
    )

    const asked = engine.requests.length
    const back = await judge({})
    t.same(
      Object.values<{ cached: boolean }>(back.body).map((a) => a.cached),
      [true, true, true],
      'the row comes back: a cache hit',
    )
    t.equal(engine.requests.length, asked)
    t.same(
      judgeFiles(dir).filter((f) => readFileSync(f).includes(MARKER)),
      [],
      'and its values are not stored again',
    )
  },
)
