import t from 'tap'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { message, setup } from '../../helpers/replay-project.ts'
import { startJudgeServer, type JudgeServer } from '../../helpers/judge-server.ts'
import { stateHash } from '../../../src/core/judge/state.ts'

const PAGE = '/review?path=spam.judge.yaml&compare=candidates/spam-v2.judge.yaml&reviewer=ann'

async function post(server: JudgeServer, fields: Record<string, string>) {
  const res = await fetch(`${server.url}/review`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

/** The fields of the comparison review's button for `label` on the first card of the page. */
function buttonFields(page: string, label: string): Record<string, string> {
  const form = page
    .split('<form method="post" action="/review">')
    .slice(1)
    .find((f) => f.includes(`name="label" value="${label}"`))!
  return Object.fromEntries(
    [...form.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2].replace(/&amp;/g, '&'),
    ]),
  )
}

t.test(
  'the review page with compare offers the rows where the specs differ; a comparison verdict is saved apart and the live estimate does not move',
  async (t) => {
    // Shadowed rows 0-5: the specs differ on 3, 4 and 5.
    const { dir, env } = await setup(t, { keep: 10, shadowed: 6 })
    const server = await startJudgeServer(t, dir, env)
    const before = (await server.get('/v1/accuracy?path=spam.judge.yaml')).body
    const page = await server.get(PAGE)
    t.equal(page.status, 200)
    t.match(page.text, /<h1>Rows where two specs differ: <code>spam<\/code><\/h1>/)
    t.equal(page.text.match(/<section class="card review-card"/g)?.length, 3)
    t.match(
      page.text,
      /The two specs said <span class="label">(yes|no)<\/span> and <span class="label">(yes|no)<\/span>\./,
    )
    const twin = (await server.get(`/v1/pages${PAGE}`)).body
    t.match(twin, {
      path: 'spam.judge.yaml',
      compare: 'candidates/spam-v2.judge.yaml',
      judgment: 'spam',
      candidate: 'spam-v2',
      left: { is_spam: 3, topic: 0 },
      saved: null,
    })
    t.same(
      new Set(twin.cards.map((c: { state_hash: string }) => c.state_hash)),
      new Set([3, 4, 5].map((i) => stateHash({ message: message(i) }))),
    )
    t.notOk(JSON.stringify(twin).includes('"live"'), "the page's data does not say which spec gave which label")

    const fields = buttonFields(page.text, 'yes')
    t.match(fields, {
      path: 'spam.judge.yaml',
      node: 'spam',
      compare: 'candidates/spam-v2.judge.yaml',
      question: 'is_spam',
      kind: 'compare',
      verdict: 'labeled',
      label: 'yes',
      reviewer: 'ann',
    })
    const saved = await post(server, fields)
    t.equal(saved.status, 303)
    t.equal(
      saved.location,
      `/review?path=spam.judge.yaml&node=spam&compare=candidates%2Fspam-v2.judge.yaml&reviewer=ann&saved=is_spam%3A${fields.state}`,
    )
    const line = readFileSync(join(dir, 'spam.reviews.csv'), 'utf8').trim().split('\n')[1]
    t.match(
      line,
      new RegExp(`,ann,spam,is_spam,${fields.state},compare,labeled,"\\[""yes""\\]",`),
      'a line of kind compare',
    )
    t.same((await server.get('/v1/accuracy?path=spam.judge.yaml')).body, before, 'the live estimate is the same')
    t.equal((await server.get(`/v1/pages${PAGE}`)).body.left.is_spam, 2)
    t.match(
      (await server.get('/v1/compare?path=spam.judge.yaml&candidate=candidates/spam-v2.judge.yaml')).body.questions
        .is_spam,
      { reviewed: 1 },
    )
    t.match((await server.get(saved.location!)).text, /Saved the label of <code>is_spam<\/code> row/)

    t.equal((await post(server, fields)).status, 409, 'the same row again: not offered any more')
    t.equal((await post(server, { ...fields, kind: 'spot_check' })).status, 400)
    t.equal((await post(server, { ...fields, compare: '../x' })).status, 403)
    const { question: _, ...noQuestion } = fields
    t.equal((await post(server, noQuestion)).status, 400)
  },
)

t.test('with every discordant row labelled the page says so and links to the comparison', async (t) => {
  const { dir, env } = await setup(t, { keep: 3, shadowed: 3 })
  const server = await startJudgeServer(t, dir, env)
  const page = await server.get(PAGE)
  t.match(page.text, /None left here/)
  t.match(
    page.text,
    /href="\/compare\?path=spam\.judge\.yaml&amp;node=spam&amp;candidate=candidates%2Fspam-v2\.judge\.yaml">See the comparison<\/a>/,
  )
})
