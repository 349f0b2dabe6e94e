import t, { type Test } from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { startJudgeServer, type JudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms } from '../../helpers/review-forms.ts'
import { reviewProject } from '../../helpers/review-project.ts'

// 91 rows wait: a disagreement, 89 spot checks and an unsure row; a page shows 25 of them.
const PAGE = '/review?path=spam.judge.yaml'
const TWIN = '/v1/review?path=spam.judge.yaml'

async function setup(t: Test) {
  const project = await reviewProject(t)
  return { ...project, server: await startJudgeServer(t, project.dir) }
}

/** The rows a page shows, as `question state`, once each. */
function rows(page: string): string[] {
  return [...new Set(verdictForms(page).map((f) => `${f.fields.question} ${f.fields.state}`))]
}

async function post(
  server: JudgeServer,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  const res = await fetch(server.url + path, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  })
  return { status: res.status, location: res.headers.get('location'), text: await res.text() }
}

function lines(dir: string): Record<string, string>[] {
  const file = join(dir, 'spam.reviews.csv')
  return existsSync(file) ? parse(readFileSync(file), { columns: true }) : []
}

t.test(
  'a named reviewer holds the cards shown; the others are shown the rest, and a verdict on a held row is 409',
  async (t) => {
    const { dir, server } = await setup(t)
    const all = rows((await server.get(PAGE)).text)
    t.equal(all.length, 25, 'a page of rows offered')
    t.same(rows((await server.get(PAGE)).text), all, 'a view without a name holds nothing')
    const ann = rows((await server.get(PAGE + '&reviewer=ann&kind=spot_check')).text)
    t.equal(ann.length, 25)
    const bob = rows((await server.get(PAGE + '&reviewer=bob')).text)
    t.equal(bob.length, 25)
    t.same(
      bob.filter((r) => ann.includes(r)),
      [],
      "bob is not shown ann's rows",
    )
    t.same(
      rows((await server.get(PAGE)).text).filter((r) => ann.includes(r) || bob.includes(r)),
      [],
      'a view without a name is shown no row held by ann or bob',
    )
    t.same(rows((await server.get(PAGE + '&reviewer=ann&kind=spot_check')).text), ann, 'ann is shown hers again')
    const annForm = verdictForms((await server.get(PAGE + '&reviewer=ann&kind=spot_check')).text)[0].fields
    const stolen = await post(server, '/review', { ...annForm, reviewer: 'bob' })
    t.equal(stolen.status, 409, 'a row held by another is not offered to bob')
    t.match(stolen.text, /the queue does not offer row/)
    const unnamed = await post(server, '/review', { ...annForm, reviewer: '' })
    t.equal(unnamed.status, 409, 'nor to a verdict without a name')
    const saved = await post(server, '/review', annForm)
    t.equal(saved.status, 303, "ann's verdict is accepted")
    t.equal(lines(dir).length, 1)
    const undone = await server.get(saved.location!)
    const undo = [...undone.text.matchAll(/<form method="post" action="\/review\/undo">(.*?)<\/form>/g)].map((m) =>
      Object.fromEntries([...m[1].matchAll(/name="([^"]+)" value="([^"]*)"/g)].map((f) => [f[1], f[2]])),
    )[0]
    t.equal((await post(server, '/review/undo', undo)).status, 303)
    const freed = rows((await server.get(PAGE + '&reviewer=bob')).text)
    t.same(freed.toSorted(), all.toSorted(), "an undo releases ann's rows: bob's next page shows every row")
  },
)

t.test('the page asks a name once and remembers it in a cookie', async (t) => {
  const { server } = await setup(t)
  const unnamed = await server.get(PAGE)
  t.equal(unnamed.headers.get('set-cookie'), null, 'no name, no cookie')
  t.match(unnamed.text, /<form method="get" action="\/review" class="who">/, 'the name is asked')
  const named = await server.get(PAGE + '&reviewer=ann')
  const cookie = named.headers.get('set-cookie')!
  t.match(cookie, /^judge_reviewer=ann; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/)
  t.notMatch(named.text, /class="who"/, 'not asked again')
  const back = await server.get(PAGE, { cookie: cookie.split(';')[0] })
  t.match(back.text, /reviewed today by <strong>ann<\/strong>/, 'the cookie names the reviewer')
  t.equal(verdictForms(back.text)[0].fields.reviewer, 'ann', "and signs the page's verdicts")
  const twin = await server.get('/v1/review?path=spam.judge.yaml&audit=1', { cookie: 'judge_reviewer=bob' })
  t.equal(twin.body.reviewer, 'bob', 'the twin reads it too')
  t.equal(twin.headers.get('set-cookie'), null, 'but sets none')
  const forged = await server.get(PAGE, { cookie: 'judge_reviewer=%3Cb%3Ex' })
  t.equal(forged.status, 200)
  t.notMatch(forged.text, /<b>x/, 'a cookie that is no name is ignored')
  t.match(forged.text, /class="who"/)
})

t.test('a named reviewer given through X-Reviewer holds its cards too', async (t) => {
  const { server } = await setup(t)
  const api = await server.get(TWIN, { 'x-reviewer': 'robot' })
  t.equal(api.body.cards.length, 25)
  t.equal(api.body.cards_held, 25)
  const robot = api.body.cards.map((c: { question: string; state_hash: string }) => `${c.question} ${c.state_hash}`)
  const ann = rows((await server.get(PAGE + '&reviewer=ann')).text)
  t.equal(ann.length, 25, 'ann is shown a page of the rows robot does not hold')
  t.same(
    ann.filter((r) => robot.includes(r)),
    [],
    'no row held for robot is shown to ann',
  )
})

t.test(
  "progress per reviewer: today's and all-time verdicts, rows held now, and what is left, on the page and its twin",
  async (t) => {
    const { server } = await setup(t)
    const annPage = await server.get(PAGE + '&reviewer=ann&kind=spot_check')
    const form = verdictForms(annPage.text)[0].fields
    t.equal((await post(server, '/review', form)).status, 303)
    await server.get(PAGE + '&reviewer=bob')
    const twin = (await server.get(TWIN + '&reviewer=ann&kind=spot_check')).body
    t.same(twin.progress, { reviewer: 'ann', day: twin.progress.day, reviewed: 1, all_time: 1, held: 25, left: 90 })
    t.same(twin.reviewers, [
      { reviewer: 'ann', today: 1, all_time: 1, held: 25 },
      { reviewer: 'bob', today: 0, all_time: 0, held: 25 },
    ])
    const page = (await server.get(PAGE + '&reviewer=ann&kind=spot_check')).text
    t.match(page, /<summary>Reviewers: 2 · 1 reviewed in all and 25 held now by ann<\/summary>/)
    t.match(page, /<strong>90<\/strong> left in the queue, 25 of them held by other reviewers<\/p>/)
    t.match(
      page,
      /<tr class="me"><th scope="row">ann<\/th><td>1<\/td><td>1<\/td><td>25<\/td><\/tr><tr><th scope="row">bob<\/th><td>0<\/td><td>0<\/td><td>25<\/td><\/tr>/,
    )
  },
)
