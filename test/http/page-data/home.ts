import t from 'tap'
import { existsSync, mkdirSync, symlinkSync } from 'node:fs'
import { basename, join } from 'node:path'
import { PROVENANCE_FIELDS, RUN_FIELDS } from '../../../src/app/runs.ts'
import { homeData } from '../../../src/http/page-data/home.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { serverContext as context } from '../../helpers/server-context.ts'
import { seedRuns } from '../../helpers/seed-runs.ts'
import { SPAM_YAML } from '../../helpers/specs.ts'
import { writeAccuracyProject } from '../../helpers/accuracy-project.ts'
import { percent } from '../../../src/format.ts'
import { escapeHtml } from '../../../src/http/html.ts'

const TONE_YAML = 'name: tone\nstate: [message]\nquestions:\n  tone: {ask: Friendly?, type: yes_no}\n'

t.test('each folder lists its judgments and the newest run of any of them, cut to the listed fields', async (t) => {
  const dir = t.testdir({ sms: { 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML } })
  const [, newest] = seedRuns(join(dir, 'sms'), [
    { judgment: 'spam', counts: { is_spam: { yes: 1 } } },
    { judgment: 'tone', counts: { tone: { no: 2 } } },
  ])
  const {
    folders: [folder],
  } = await homeData(context(t, dir))
  t.match(folder, {
    path: 'sms',
    judgments: [{ name: 'spam' }, { name: 'tone' }],
    last_run: { run_id: newest.run_id, judgment: 'tone', rows: 2 },
    spend: { daily_cap: null, today: { cost: 0, requests: 0 }, days: [] },
    error: null,
  })
  t.same(Object.keys(folder.last_run!), [...RUN_FIELDS, ...PROVENANCE_FIELDS])
})

t.test(
  'a folder that does not load shows its error, relative to the served folder, and the others still load',
  async (t) => {
    const dir = t.testdir({ broken: { 'bad.judge.yaml': 'questions: [' }, sms: { 'spam.judge.yaml': SPAM_YAML } })
    const { folders } = await homeData(context(t, dir))
    t.match(folders, [
      { path: 'broken', judgments: [], last_run: null, error: /^broken\/bad\.judge\.yaml: invalid YAML/ },
      { path: 'sms', judgments: [{ name: 'spam', error: null }], error: null },
    ])
  },
)

t.test('a folder without a store has no last run, and reading it makes no store', async (t) => {
  const dir = t.testdir({ 'spam.judge.yaml': SPAM_YAML })
  const none = { answers: 0, estimable: false, estimate: null, interval: null, needed: 0, pending: 0, reviewed: 0 }
  t.match(await homeData(context(t, dir)), {
    folders: [
      {
        path: '.',
        name: basename(dir),
        judgments: [{ name: 'spam', questions: { is_spam: none, topic: none, urgency: none }, error: null }],
        last_run: null,
        spend: { daily_cap: null, today: { cost: 0, requests: 0 }, days: [] },
        error: null,
      },
    ],
  })
  t.notOk(existsSync(join(dir, '.judge')))
})

t.test('GET / finds spec folders at any depth, skipping dot-folders, node_modules and symlinks', async (t) => {
  const dir = t.testdir({
    'root.judge.yaml': SPAM_YAML.replace('name: spam', 'name: top'),
    sms: { 'spam.judge.yaml': SPAM_YAML },
    deep: { er: { 'tone.judge.yml': 'state: [m]\nquestions:\n  q: {ask: Q?, type: yes_no}\n' } },
    broken: { 'bad.judge.yaml': 'questions: [' },
    '.hidden': { 'spam.judge.yaml': SPAM_YAML },
    node_modules: { pkg: { 'spam.judge.yaml': SPAM_YAML } },
    empty: {},
  })
  mkdirSync(join(dir, 'outside'))
  symlinkSync(join(dir, 'sms'), join(dir, 'linked'))
  seedRuns(join(dir, 'sms'), [{ judgment: 'spam', counts: { is_spam: { yes: 1 } } }])
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok' })
  const res = await server.get('/?token=tok')
  t.equal(res.status, 200)
  const folders = [...res.text.matchAll(/<h2><code>([^<]*)<\/code><\/h2>/g)].map((m) => m[1])
  t.same(folders, [basename(dir), 'broken', 'deep/er', 'sms'], "the served folder's root is headed by its own name")
  t.match(res.text, /Last run <code>\d{8}T\d{6}Z-\w{6}<\/code> of <code>spam<\/code>: 1 rows/)
  t.match(
    res.text,
    /<p class="error">broken\/bad\.judge\.yaml: invalid YAML/,
    'the error names the file relative to the served folder',
  )
  t.notMatch(res.text, dir, 'no absolute server path')
  const links = [...res.text.matchAll(/href="([^"]*)"/g)].map((m) => m[1])
  t.ok(links.length > 5)
  t.ok(
    links.every((l) => /(\?|&amp;)token=tok$/.test(l)),
    'every link carries the token on',
  )
  const header = await server.get('/', { authorization: 'Bearer tok' })
  t.notMatch(header.text, /token=/, 'a header token is never written into the page')
})

t.test(
  "GET /v1/projects is the home page's data: every folder, judgment and question's figures as the page shows them",
  async (t) => {
    const dir = t.testdir({
      sms: { 'spam.judge.yaml': SPAM_YAML, 'tone.judge.yaml': TONE_YAML },
      broken: { 'bad.judge.yaml': 'questions: [' },
    })
    seedRuns(join(dir, 'sms'), [{ judgment: 'spam', counts: { is_spam: { yes: 1 } } }])
    const acc = join(dir, 'acc')
    writeAccuracyProject(acc, 600, 0.25)
    const server = await startJudgeServer(t, dir)
    const [page, json] = await Promise.all([server.get('/'), server.get('/v1/projects')])
    t.equal(json.status, 200)
    t.same(
      json.body.folders.map((f: { name: string }) => f.name),
      [...page.text.matchAll(/<h2><code>([^<]*)<\/code><\/h2>/g)].map((m) => m[1]),
    )
    for (const folder of json.body.folders) {
      if (folder.error) t.ok(page.text.includes(escapeHtml(folder.error)), `${folder.path}: its error`)
      if (folder.last_run) t.match(page.text, `Last run <code>${folder.last_run.run_id}</code>`)
      for (const judgment of folder.judgments) {
        for (const [question, q] of Object.entries<Record<string, any>>(judgment.questions)) {
          const row = new RegExp(`<tr><td><code>${question}</code></td><td>(.*?)</td><td>(.*?)</td></tr>`)
          const inFolder = page.text.slice(page.text.indexOf(`<h2><code>${folder.name}</code></h2>`))
          const cells = row.exec(inFolder.slice(inFolder.indexOf(`<h3><code>${judgment.name}</code>`)))
          t.ok(cells, `${folder.path} ${judgment.name} ${question}: a row`)
          if (q.answers > 0) t.match(cells![1], `· ${q.answers} answers`)
          if (q.estimate !== null)
            t.match(
              cells![1],
              `<strong>${percent(q.estimate)}</strong> <span class="estimate">(${percent(q.interval[0])} to ${percent(q.interval[1])})</span>`,
            )
          t.match(cells![2], q.pending === 0 ? 'no disagreement' : `${q.pending} disagreement`)
          t.match(cells![2], `${q.reviewed} reviewed`)
        }
      }
    }
    const accuracy = json.body.folders.find((f: { path: string }) => f.path === 'acc').judgments[0].questions.is_spam
    t.match(accuracy, { answers: 600, estimable: true, estimate: Number })
    const report = (await server.get('/v1/accuracy?path=acc')).body.questions.is_spam.estimate
    t.equal(accuracy.estimate, report.point, 'the estimate of the accuracy report')
    t.same(accuracy.interval, report.interval)
  },
)
