import t from 'tap'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { stringify } from 'csv-stringify/sync'
import { openSqliteStore } from '../../src/adapters/sqlite/sqlite-store.ts'
import { MIN_REVIEWED } from '../../src/core/jury/dawid-skene.ts'
import { stateHash } from '../../src/core/judge/state.ts'
import { PACE_MARGIN } from '../../src/core/pacing/pace.ts'
import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import { formatUsd, percent } from '../../src/format.ts'
import type { StoredAnswer } from '../../src/ports/answer-store.ts'
import type { Store } from '../../src/ports/store.ts'
import { inputTokens, messageReply, startAnthropicServer } from '../helpers/anthropic-server.ts'
import { failOnWarnings, openBrowser, openPage, screenshot, SKIP_BROWSER as skip } from '../helpers/browser.ts'
import { cli, ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { chatReply, startOpenAiServer } from '../helpers/openai-server.ts'
import type { ReceivedRequest } from '../helpers/system-one-server.ts'
import { smsMessages } from '../helpers/sms.ts'
import { createVirtualClock } from '../helpers/virtual-clock.ts'

// Three jurors on two local wire servers: an OpenAI-compatible one serving a model that sends log probabilities
// (LOGPROBS) and one that sends none (PLAIN), and an Anthropic one (CLAUDE). Both sampled jurors are asked K times.
const LOGPROBS = 'qwen-logprobs'
const PLAIN = 'llama-plain'
const CLAUDE = 'claude-haiku-4-5-20251001'
const K = 3
const ROWS = 48
const SPEC = `name: trio
state: [message]
models:
  - ${LOGPROBS}
  - ${PLAIN}
  - { model: ${CLAUDE}, engine: anthropic }
questions:
  is_spam:
    ask: Is this message unsolicited advertising or a scam?
    type: yes_no
`

/** People's label of each example message: the example's answer key. */
const TRUTH: ReadonlyMap<string, string> = new Map(
  (
    parse(readFileSync(resolve(ROOT, 'examples/sms/spam.key.csv')), { columns: true }) as {
      message: string
      is_spam: string
    }[]
  ).map((r) => [r.message, r.is_spam]),
)

/** The first ROWS distinct example messages with a known label, and their place. */
const MESSAGES = [...new Set(smsMessages().map((r) => r.message))].filter((m) => TRUTH.has(m)).slice(0, ROWS + 1)
const FIRST = MESSAGES.slice(0, ROWS)
const LATER = MESSAGES[ROWS]
const place = (message: string) => MESSAGES.indexOf(message)
const other = (label: string) => (label === 'yes' ? 'no' : 'yes')

/** The message a prompt's data carries. */
function messageOf(prompt: string): string {
  const data = prompt.split('Data:\n')[1]?.split('\n')[0] ?? '{}'
  return (JSON.parse(data) as { message?: string }).message ?? ''
}

/** The text of a request's messages, as the servers read a prompt. */
const promptOf = (body: WireBody): string => body.messages.map((m) => m.content).join('\n')

/** What the tests read of a chat or messages request's body. */
interface WireBody {
  readonly model: string
  readonly messages: readonly { readonly content: string }[]
  readonly temperature?: number
}

/** The log-prob model: sure and right but for every seventh row, which it gets wrong. */
function logprobsLabel(message: string): string {
  const truth = TRUTH.get(message)!
  return place(message) % 7 === 6 ? other(truth) : truth
}

/** The plain model's draw `draw` of a row: right, but for one draw of three on every fifth row. */
function plainLabel(message: string, draw: number): string {
  const truth = TRUTH.get(message)!
  return place(message) % 5 === 2 && draw % K === 1 ? other(truth) : truth
}

/**
 * Claude's draw `draw` of a row: wrong on every fourth row (all draws, which people correct), undecided on every third
 * (one draw of three the other way), right elsewhere.
 */
function claudeLabel(message: string, draw: number): string {
  const truth = TRUTH.get(message)!
  if (place(message) % 4 === 1) return other(truth)
  if (place(message) % 3 === 0 && draw % K === 2) return other(truth)
  return truth
}

/** Counts draws per model and prompt, so that the k draws of a question are told apart whatever their order. */
function drawCounter(): (model: string, prompt: string) => number {
  const seen = new Map<string, number>()
  return (model, prompt) => {
    const key = `${model}\n${prompt}`
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    return n
  }
}

/** The requests of a server's chat or messages route asking `model`. */
const asking = (requests: readonly ReceivedRequest[], model: string) =>
  requests.filter((r) => r.method === 'POST' && (r.body as { model?: string }).model === model)

/** The store's reservations of every pace key, in requests (each reservation's spacing over one request's). */
function countingPace(open: (file: string, now: () => number) => Store, rpmOf: (key: string) => number) {
  const reserved = new Map<string, number>()
  const openStore = (file: string, now: () => number): Store => {
    const store = open(file, now)
    const reserve = store.reservePace.bind(store)
    store.reservePace = (key, at, spacingMs, latest) => {
      const slot = reserve(key, at, spacingMs, latest)
      const one = (60_000 / rpmOf(key)) * (1 + PACE_MARGIN)
      if (slot.reserved) reserved.set(key, (reserved.get(key) ?? 0) + Math.round(spacingMs / one))
      return slot
    }
    return store
  }
  return { openStore, reserved }
}

/** What judge prices of a request the local servers answered: its input tokens as the server counted them. */
function openAiTokens(request: ReceivedRequest): number {
  return Math.ceil(promptOf(request.body as WireBody).length / 4) + 16
}

/** Each model's stored answer to is_spam for each message, read from the store file. */
function storedAnswers(dir: string, models: readonly string[], messages: readonly string[]) {
  const fingerprint = parseSpec(SPEC, join(dir, 'trio.judge.yaml')).questions[0].fingerprint
  const store = openSqliteStore(join(dir, 'store.sqlite'))
  try {
    const of = (model: string) =>
      messages.map((message) => store.getAnswers(model, stateHash({ message }), [fingerprint]).get(fingerprint))
    return Object.fromEntries(models.map((model) => [model, of(model)])) as Record<string, (StoredAnswer | undefined)[]>
  } finally {
    store.close()
  }
}

const JURY = `jury:${LOGPROBS}+${PLAIN}+${CLAUDE}`

t.test(
  'three models behind local OpenAI-compatible and Anthropic servers: planned, run at k samples and paced, reviewed in the browser until the jury weighs them, and tested',
  { skip },
  async (t) => {
    const draws = drawCounter()
    const openai = await startOpenAiServer({
      models: [LOGPROBS, PLAIN],
      expectKey: 'sk-local',
      reply: (request) => {
        if (request.method !== 'POST' || request.path !== '/v1/chat/completions') return undefined
        const body = request.body as WireBody
        const prompt = promptOf(body)
        const message = messageOf(prompt)
        if (body.model === LOGPROBS) {
          const label = logprobsLabel(message)
          const top = () => [
            { token: label, logprob: Math.log(0.92) },
            { token: other(label), logprob: Math.log(0.06) },
          ]
          return chatReply(body, { top })
        }
        // The plain model's answer at temperature 0, then its draws: never a log probability.
        const top = () => [{ token: TRUTH.get(message)!, logprob: 0 }]
        const drawn = () => plainLabel(message, draws(PLAIN, prompt))
        return chatReply(body, { top, noLogprobs: true, drawn })
      },
    })
    const anthropic = await startAnthropicServer({
      models: [CLAUDE],
      expectKey: 'sk-ant-local',
      reply: (request) => {
        if (request.method !== 'POST' || request.path !== '/v1/messages') return undefined
        const body = request.body as WireBody
        const prompt = promptOf(body)
        const message = messageOf(prompt)
        return messageReply(body, {
          text: () => claudeLabel(message, 0),
          drawn: () => claudeLabel(message, draws(CLAUDE, prompt)),
        })
      },
    })
    t.teardown(() => Promise.all([openai.close(), anthropic.close()]))

    const dir = t.testdir({
      'trio.judge.yaml': SPEC,
      'first.csv': stringify([['message'], ...FIRST.map((m) => [m])]),
    })
    // As a user sets it up: the OpenAI-compatible server as ENGINE (ENGINE_MODEL too, which ENGINE=openai requires
    // even though the spec names its models), Anthropic through its juror variables; a pace on the OpenAI server.
    const env = {
      ENGINE: 'openai',
      ENGINE_URL: openai.url,
      ENGINE_API_KEY: 'sk-local',
      ENGINE_MODEL: LOGPROBS,
      ENGINE_RPM: '600',
      ENGINE_PRICE_PER_MTOK: '2',
      ENGINE_SAMPLES: String(K),
      ENGINE_ANTHROPIC_URL: anthropic.url,
      ENGINE_ANTHROPIC_API_KEY: 'sk-ant-local',
      ENGINE_ANTHROPIC_PRICE_PER_MTOK: '1',
      JUDGE_STORE: join(dir, 'store.sqlite'),
    }

    // judge plan: Claude costs k requests a question; the plain model, not yet known to give no log probabilities in
    // a fresh process, one (docs/engine.md, "What it costs").
    const plan = await cli(['plan', 'trio.judge.yaml', '--data', 'first.csv', '--json'], env, dir)
    t.equal(plan.code, 0, plan.stderr)
    const jurors = JSON.parse(plan.stdout)[0].jurors
    t.match(jurors, [
      { model: LOGPROBS, ask: ROWS, requests: ROWS },
      { model: PLAIN, ask: ROWS, requests: ROWS },
      { model: CLAUDE, engine: 'anthropic', ask: ROWS, requests: K * ROWS },
    ])
    // The same prompts at $2 a million tokens for one request, at $1 for k.
    t.equal(Math.round((jurors[2].estimate / jurors[0].estimate) * 1000) / 1000, K / 2, "Claude's estimate counts k")
    const planText = await cli(['plan', 'trio.judge.yaml', '--data', 'first.csv'], env, dir)
    t.match(planText.stdout, new RegExp(`${CLAUDE} +anthropic +0 +${ROWS} +${K * ROWS} `))

    // judge run, its waits on a virtual clock that ends before now, so that the pace it leaves is past for the server.
    const clock = createVirtualClock(Date.now() - 3_600_000)
    const rpmOf = (key: string) => (key.startsWith('anthropic ') ? 50 : 600)
    const pace = countingPace((file, now) => openSqliteStore(file, { batchReads: true, now }), rpmOf)
    const run = await cli(['run', 'trio.judge.yaml', '--data', 'first.csv', '--json'], env, dir, {
      now: clock.now,
      sleep: clock.sleep,
      openStore: pace.openStore,
    })
    t.equal(run.code, 0, run.stderr)

    const sent = {
      [LOGPROBS]: asking(openai.requests, LOGPROBS),
      [PLAIN]: asking(openai.requests, PLAIN),
      [CLAUDE]: asking(anthropic.requests, CLAUDE),
    }
    t.equal(sent[LOGPROBS].length, ROWS, 'the log-prob model: one request a row')
    const sampled = sent[PLAIN].filter((r) => ((r.body as WireBody).temperature ?? 0) > 0).length
    t.equal(sampled, K * ROWS, 'the plain model: k draws a row')
    t.ok(sent[PLAIN].length - sampled >= 1, 'and an answer at temperature 0 that showed it gives no log probabilities')
    t.equal(sent[CLAUDE].length, K * ROWS, 'Claude: k draws a row')
    const all = sent[LOGPROBS].length + sent[PLAIN].length + sent[CLAUDE].length

    const record = JSON.parse(run.stdout)[0]
    t.match(record, {
      model: JURY,
      status: 'complete',
      rows: ROWS,
      requests: all,
      sources: { is_spam: { vote: ROWS } },
    })
    const openAiTokensSent = [...sent[LOGPROBS], ...sent[PLAIN]].reduce((n, r) => n + openAiTokens(r), 0)
    const claudeTokensSent = sent[CLAUDE].reduce((n, r) => n + inputTokens(r.body), 0)
    t.equal(
      formatUsd(record.cost),
      formatUsd((openAiTokensSent * 2 + claudeTokensSent * 1) / 1e6),
      "the run's cost is every request's input tokens at its engine's price",
    )
    t.same(
      Object.fromEntries(pace.reserved),
      {
        [`openai ${openai.url}`]: sent[LOGPROBS].length + sent[PLAIN].length,
        [`anthropic ${anthropic.url}`]: sent[CLAUDE].length,
      },
      "each engine's pace in the store counted every request its server received",
    )

    const stored = storedAnswers(dir, [LOGPROBS, PLAIN, CLAUDE, JURY], FIRST)
    t.ok(
      stored[LOGPROBS].every((a) => a?.source === 'logprobs'),
      'the log-prob model: p from log probabilities',
    )
    for (const model of [PLAIN, CLAUDE])
      t.ok(
        stored[model].every((a) => a?.source === 'samples' && a.samples === K),
        `${model}: p from k samples`,
      )
    const split = stored[JURY].filter((a) => (a?.dissent ?? 0) > 0).length
    t.ok(stored[JURY].every((a) => a?.source === 'vote'))
    t.ok(split > 0 && split < ROWS, `jurors disagree on ${split} rows`)

    // The review page: the split stratum shown, then verdicts clicked as a reviewer gives them.
    const server = await startJudgeServer(t, dir, env)
    const page = await openPage(t, await openBrowser(t), 1280, { javaScriptEnabled: true })
    failOnWarnings(t, page)
    t.equal((await page.goto(`${server.url}/review?path=trio.judge.yaml&reviewer=ann`))?.status(), 200)
    t.match(await page.locator('.counts').textContent(), `${split} where jurors disagree`)
    t.ok((await page.locator('.review-card .kind-split').count()) > 0, 'cards of rows where jurors disagree')
    t.equal(await page.locator('.review-card .kind-split').first().textContent(), 'jurors disagree')
    await screenshot(page, 'jury-review')

    const current = page.locator('section.review-card.current')
    const kinds = new Set<string>()
    for (let clicked = 0; clicked < MIN_REVIEWED; clicked++) {
      const hash = await current.locator('input[name=state]').first().getAttribute('value')
      const message = FIRST.find((m) => stateHash({ message: m }) === hash)
      if (message === undefined) throw new Error(`the card's row ${hash} is none of the data's`)
      kinds.add((await current.locator('input[name=kind]').first().getAttribute('value'))!)
      const truth = TRUTH.get(message)!
      const shown = (await current.locator('.answers .label').last().textContent())!.trim()
      const name = shown === truth ? /label is right/ : new RegExp(`it is ${truth}`)
      await Promise.all([
        page.waitForURL(new RegExp(`saved=is_spam%3A${hash}`)),
        current.getByRole('button', { name }).click(),
      ])
      await page.waitForLoadState('load')
    }
    t.ok(kinds.has('split'), 'split rows were reviewed')
    t.match(await page.locator('.progress').textContent(), `${MIN_REVIEWED} reviewed today by ann`)
    await screenshot(page, 'jury-reviewed')

    // A row judged after the reviews gets the jury's weighed answer, each juror asked for it.
    const before = { plain: sent[PLAIN].length, claude: sent[CLAUDE].length }
    const later = await server.post('/v1/judge', { path: 'trio.judge.yaml', row: { message: LATER } })
    t.equal(later.status, 200, later.text)
    t.match(later.body.is_spam, { cached: false, p_source: 'jury', label: TRUTH.get(LATER) })
    t.equal(asking(anthropic.requests, CLAUDE).length - before.claude, K, 'Claude sampled k times for it')
    t.ok(asking(openai.requests, PLAIN).length - before.plain >= K, 'the plain model sampled k times for it')
    const laterStored = storedAnswers(dir, [PLAIN, CLAUDE, JURY], [LATER])
    t.match(laterStored, {
      [PLAIN]: [{ source: 'samples' }],
      [CLAUDE]: [{ source: 'samples' }],
      [JURY]: [{ source: 'jury' }],
    })

    // Each juror's accuracy beside the jury's, on the same reviewed rows, with intervals and costs: CLI, API, page.
    const test = await cli(['test', 'trio.judge.yaml', '--json'], env, dir)
    t.equal(test.code, 0, test.stderr)
    const figures = JSON.parse(test.stdout).trio.is_spam
    const interval = [Number, Number]
    t.match(figures.jury, { model: JURY, rows: MIN_REVIEWED, interval, cost_usd: Number })
    t.match(
      figures.jurors,
      [LOGPROBS, PLAIN, CLAUDE].map((model) => ({ model, rows: MIN_REVIEWED, interval, cost_usd: Number })),
    )
    const byModel = Object.fromEntries(figures.jurors.map((j: { model: string }) => [j.model, j]))
    t.ok(byModel[CLAUDE].accuracy < byModel[PLAIN].accuracy, "people's corrections show Claude the least right")
    const testText = await cli(['test', 'trio.judge.yaml'], env, dir)
    t.match(testText.stdout, /what each juror buys/)
    for (const juror of figures.jurors)
      t.match(testText.stdout, new RegExp(`${juror.model} .* ${percent(juror.accuracy).replace('.', '\\.')} \\(`))

    const api = await server.get('/v1/accuracy?path=trio.judge.yaml')
    t.equal(api.status, 200, api.text)
    // Costs included: a sampled juror's answers are priced at the k they record, whatever the process knows of it.
    const served = api.body.questions.is_spam
    t.same(
      { jury: served.jury, jurors: served.jurors },
      { jury: figures.jury, jurors: figures.jurors },
      'GET /v1/accuracy gives the figures judge test gives',
    )
    t.equal(
      Math.round((byModel[PLAIN].cost_usd / byModel[LOGPROBS].cost_usd) * 1000) / 1000,
      K,
      'the plain model: k requests a row at the same price as the log-prob one',
    )
    t.equal(Math.round((byModel[CLAUDE].cost_usd / byModel[LOGPROBS].cost_usd) * 1000) / 1000, K / 2)
    t.equal((await page.goto(`${server.url}/accuracy?path=trio.judge.yaml`))?.status(), 200)
    const section = await page.locator('#is_spam').innerText()
    t.match(section, 'What each juror buys')
    t.match(
      section,
      `${percent(figures.jury.accuracy)} (${percent(figures.jury.interval[0])} to ${percent(figures.jury.interval[1])})`,
    )
    for (const juror of figures.jurors)
      t.match(
        section,
        `${juror.model}\t${juror.engine ?? 'ENGINE'}\t${percent(juror.accuracy)} (${percent(juror.interval[0])} to ${percent(juror.interval[1])})`,
      )
    for (const juror of figures.jurors) t.match(section, formatUsd(juror.cost_usd))
    await screenshot(page, 'jury-accuracy')
  },
)
