import t, { type Test } from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { setTimeout as delay } from 'node:timers/promises'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../src/adapters/sqlite/sqlite-store.ts'
import type { WireRequest } from '../src/adapters/system-one/system-one-wire.ts'
import { stateHash } from '../src/core/judge/state.ts'
import { cli, startCli } from './helpers/cli.ts'
import { startJudgeServer, type JudgeServer } from './helpers/judge-server.ts'
import { verdictForms } from './helpers/review-forms.ts'
import { SPAM_YAML } from './helpers/specs.ts'
import { startSystemOneServer } from './helpers/system-one-server.ts'
import { spamWireAnswer } from './helpers/spam-wire.ts'

// One row whose text is a unique marker goes into every place docs/privacy.md lists, through every
// path that stores something of a row: a killed run, a run, a request with `log`, a shadow, a
// verdict with a note, a review hold, a stability re-ask. After POST /v1/forget, its bytes are in
// no file judge wrote, and every text column of every table of the store is accounted for: one
// that holds values is forgotten, or it is named below as holding none, with the reason.

const MARKER = 'zq-every-copy-marker-91b3-Rosa-Park-Lane'
const marker = stateHash({ message: MARKER })
const ROWS = [MARKER, ...Array.from({ length: 12 }, (_, i) => `plain message number ${i + 1}`)]
const TOKEN = 'tok-every-copy'
const AUTH = { authorization: `Bearer ${TOKEN}` }
// A reviewer at the page, as a browser sends it.
const AT_PAGE = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }

/** The text columns that hold a row's values: each must hold the marker before forgetting, and not after. */
const VALUES: Readonly<Record<string, readonly string[]>> = { _judge_states: ['state'] }

/** The tables (or columns, `table.column`) that hold no row values, and why: none may hold the marker, ever. */
const NO_VALUES: Readonly<Record<string, string>> = {
  '_judge_states.state_hash': 'the state hash',
  '_judge_states.stored_at': 'when the values were last stored',
  _judge_answers: 'labels, probabilities and times by state hash',
  '_judge_answers.p_source': "how an answer's p was obtained: a word of PROBABILITY_SOURCES",
  _judge_answer_tally: 'counts of answers by label and grid cell',
  _judge_runs: 'run records: counts, costs, the command and source file names',
  '_judge_runs.sources': "a run's answers per question and source of p: question names and counts",
  _judge_run_labels: 'label counts per run',
  _judge_run_states: 'state hashes and row counts per run',
  _judge_open_runs: 'the record and label counts of a run going on',
  _judge_model_checks: 'model check figures',
  _judge_model_pairs: 'label pairs and counts of a model check',
  _judge_kept: 'rows kept for replay, by state hash (forgotten with the row all the same)',
  _judge_shadows: 'live and candidate labels by state hash',
  _judge_candidates: 'shadow candidates: spec hashes and wordings',
  _judge_reasks: 'stability re-asks: labels and probabilities by state hash',
  _judge_leases: "review holds: the card as offered without the row's values, rebuilt from _judge_states when shown",
  _judge_forgotten: 'the forget log: state hash, place, count, when and how',
  _judge_pace: 'the engine pace, by engine',
  _judge_pace_cuts: 'the engine rate cuts, by engine',
  _judge_spend: 'engine spend per day and source',
  _judge_meta: 'the answers epoch',
  _judge_batches: "bulk-lane submissions: tags, the provider's ids, states, counts, estimates and times",
  _judge_batch_items: 'the questions each bulk-lane submission holds, by state hash and fingerprints',
}

/** Tables the paths must have put the marker's state hash in: proof that each path was taken. */
const BY_HASH = [
  '_judge_states',
  '_judge_answers',
  '_judge_run_states',
  '_judge_kept',
  '_judge_shadows',
  '_judge_reasks',
  '_judge_leases',
]

function answer(body: WireRequest): Record<string, unknown> {
  if (body.state.message !== MARKER) return spamWireAnswer(body, 0.1)
  // Unsure under every question, so that a verdict on one and a hold on the others are on one page.
  return spamWireAnswer(body, 0.55, { topic: [0.4, 0.35, 0.25], urgency: [0.4, 0.35, 0.25] })
}

/** Every file under a folder but the user's own (the data, the spec files), which judge never edits. */
function judgeFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => join(dir, f))
    .filter((f) => statSync(f).isFile() && !/messages\.csv$|\.judge\.yaml$/.test(f))
}

/** A text column of a table of the store, and whether it holds the marker and the marker's state hash. */
interface Column {
  readonly table: string
  readonly column: string
  readonly value: boolean
  readonly hash: boolean
}

/** Every text column of every table of the store, with whether it holds the marker and the marker's hash. */
function textColumns(file: string): Column[] {
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .all()
      .map((r) => r.name as string)
    return tables.flatMap((table) =>
      db
        .prepare('SELECT name, type FROM pragma_table_info(?)')
        .all(table)
        .filter((c) => /TEXT|^$/i.test(c.type as string))
        .map((c) => {
          const has = (text: string) =>
            db.prepare(`SELECT 1 FROM "${table}" WHERE instr("${c.name}", ?) > 0 LIMIT 1`).get(text) !== undefined
          return { table, column: c.name as string, value: has(MARKER), hash: has(marker) }
        }),
    )
  } finally {
    db.close()
  }
}

/** A run of `judge run` as its own process, killed with -9 once it stored the marker's answers and two more rows'. */
async function killedRun(t: Test, dir: string): Promise<void> {
  const engine = await startSystemOneServer({ expectKey: 'k', answer, hangFrom: 3 })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  const child = startCli(['run', 'spam.judge.yaml', '--concurrency', '1'], env, dir, 'ignore')
  const exited = new Promise<string | null>((done) => child.on('close', (_code, signal) => done(signal)))
  const store = openSqliteStore(join(dir, '.judge/store.sqlite'))
  try {
    while (store.openRuns()[0]?.run.requests !== 3) await delay(10)
  } finally {
    store.close()
  }
  child.kill('SIGKILL')
  t.equal(await exited, 'SIGKILL', 'a run killed midway')
}

async function postForm(server: JudgeServer, fields: Record<string, string>): Promise<number> {
  const res = await fetch(`${server.url}/review`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...AUTH, ...AT_PAGE },
  })
  await res.arrayBuffer()
  return res.status
}

t.test('a forgotten row is in no byte of any file judge wrote, whichever path stored it', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': `${SPAM_YAML}data: messages.csv\nunsure_below: 0.2\n`,
    'messages.csv': stringify([['message'], ...ROWS.map((m) => [m])]),
    candidates: { 'spam.judge.yaml': SPAM_YAML.replace('unsolicited advertising or a scam?', 'spam?') },
  })
  await killedRun(t, dir)
  const engine = await startSystemOneServer({ expectKey: 'k', answer })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  const run = await cli(['run', 'spam.judge.yaml'], env, dir)
  t.equal(run.code, 0, `a run: ${run.stderr}`)
  const server = await startJudgeServer(t, dir, { ...env, JUDGE_SERVER_TOKEN: TOKEN })
  const judge = (extra: object) =>
    server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: MARKER }, ...extra }, AUTH)
  t.equal((await judge({ log: true })).status, 200, 'a kept row')
  t.equal((await judge({ shadow: 'candidates' })).status, 200, 'a shadow')
  await server.running.handler.idle()

  const review = (reviewer: string) =>
    server.get(`/review?path=spam.judge.yaml&reviewer=${reviewer}&kind=unsure`, { ...AUTH, ...AT_PAGE })
  const form = verdictForms((await review('ann')).text).find(
    (f) => f.fields.state === marker && f.fields.question === 'is_spam' && f.button === 'label is right',
  )
  t.ok(form, "the marker's card is offered")
  t.equal(await postForm(server, { ...form!.fields, note: 'sounds like a neighbour' }), 303, 'a verdict with a note')
  t.ok((await review('cy')).text.includes(MARKER), "cy holds the marker's other cards")
  const stability = await cli(['stability', 'spam.judge.yaml', '--sample', '4'], env, dir)
  t.equal(stability.code, 0, `a stability check: ${stability.stderr}`)

  const store = join(dir, '.judge', 'store.sqlite')
  const before = textColumns(store)
  for (const table of BY_HASH)
    t.ok(
      before.some((c) => c.table === table && c.hash),
      `${table} holds the row`,
    )
  t.ok(readFileSync(join(dir, 'spam.reviews.csv'), 'utf8').includes(MARKER), 'the reviews file holds its values')
  const listed = (c: Column) => VALUES[c.table]?.includes(c.column) === true
  t.same(
    before.filter((c) => !listed(c) && !(c.table in NO_VALUES) && !(`${c.table}.${c.column}` in NO_VALUES)),
    [],
    'every text column is listed, as holding values or as holding none: a new one must be, and forgetting cover it',
  )
  t.same(
    before.filter((c) => c.value !== listed(c)),
    [],
    'the columns listed as holding values hold the marker; no other does',
  )

  const forgot = await server.post('/v1/forget', { path: 'spam.judge.yaml', row: { message: MARKER } }, AUTH)
  t.equal(forgot.status, 200, forgot.text)
  t.match(forgot.body, { log_cleared: true })

  t.same(
    textColumns(store).filter((c) => c.value),
    [],
    'no column of the store holds the values',
  )
  t.same(
    judgeFiles(dir).filter((f) => readFileSync(f).includes(MARKER)),
    [],
    'no file judge wrote holds the marker: the store, its log, the reviews file',
  )
  t.notOk((await review('cy')).text.includes(MARKER), "cy's page shows it no more")
  t.same(
    textColumns(store).filter((c) => c.table === '_judge_leases' && c.hash),
    [],
    'its holds are gone',
  )
  t.same(
    server.logs.filter((line) => line.includes(MARKER)),
    [],
    'the server log never held it',
  )
})

t.test('an ended hold leaves the store with the next write of anything, no page view needed', async (t) => {
  const dir = t.testdir({
    'spam.judge.yaml': `${SPAM_YAML}data: messages.csv\nunsure_below: 0.2\n`,
    'messages.csv': stringify([['message'], ...ROWS.map((m) => [m])]),
  })
  const engine = await startSystemOneServer({ expectKey: 'k', answer })
  t.teardown(() => engine.close())
  const env = { ENGINE_URL: engine.url, ENGINE_API_KEY: 'k', ENGINE_RPM: '0' }
  t.equal((await cli(['run', 'spam.judge.yaml'], env, dir)).code, 0)
  let clock = Date.parse('2026-11-22T10:00:00.000Z')
  const server = await startJudgeServer(t, dir, { ...env, JUDGE_SERVER_TOKEN: TOKEN }, { now: () => new Date(clock) })
  const holds = () =>
    textColumns(join(dir, '.judge', 'store.sqlite')).some((c) => c.table === '_judge_leases' && c.hash)
  await server.get('/review?path=spam.judge.yaml&reviewer=cy&kind=unsure', { ...AUTH, ...AT_PAGE })
  t.ok(holds(), 'cy holds the row')
  clock += 24 * 3600 * 1000
  const judged = await server.post('/v1/judge', { path: 'spam.judge.yaml', row: { message: 'a new row' } }, AUTH)
  t.equal(judged.status, 200)
  t.notOk(holds(), 'its hold ended: gone with the answers stored')
})
