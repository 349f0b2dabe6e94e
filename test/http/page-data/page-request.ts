import t from 'tap'
import { fromPage } from '../../../src/http/page-data/page-request.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { reviewProject } from '../../helpers/review-project.ts'

const PAGE = '/review?path=spam.judge.yaml'
const TWIN = '/v1/review?path=spam.judge.yaml'

/** The headers a browser sends for a page typed or followed on the server's own pages. */
const AT_PAGE = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }

/** What `<img src="http://127.0.0.1:8080/review?reviewer=mallory">` on another site sends. */
const IMAGE = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }

t.test('a request is from the page when every Sec-Fetch header it sends says so, or it sends none', async (t) => {
  t.ok(fromPage({}), 'curl, a script, an old browser: as before')
  t.ok(fromPage(AT_PAGE))
  t.ok(fromPage({ 'sec-fetch-site': 'none', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }), 'typed')
  t.ok(fromPage({ 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' }), 'a fetch')
  t.notOk(fromPage(IMAGE))
  t.notOk(fromPage({ ...AT_PAGE, 'sec-fetch-site': 'cross-site' }), 'a link on another site')
  t.notOk(fromPage({ ...AT_PAGE, 'sec-fetch-site': 'same-site' }), 'another port or subdomain')
  t.notOk(fromPage({ ...AT_PAGE, 'sec-fetch-mode': 'no-cors' }), 'an embedded load, even from the same origin')
  t.notOk(fromPage({ ...AT_PAGE, 'sec-fetch-dest': 'iframe' }), 'a frame')
  t.notOk(fromPage({ 'sec-fetch-dest': 'script' }), 'each header sent is checked on its own')
})

t.test('a request from another site holds no card and sets no cookie; one from the page does both', async (t) => {
  const project = await reviewProject(t)
  const server = await startJudgeServer(t, project.dir)
  const holders = async () =>
    (await server.get(TWIN)).body.reviewers.filter((r: { held: number }) => r.held > 0).map((r: any) => r.reviewer)

  const linked = await server.get(`${PAGE}&reviewer=mallory`, { ...AT_PAGE, 'sec-fetch-site': 'cross-site' })
  t.equal(linked.status, 200, 'the page is shown')
  t.equal(linked.headers.get('set-cookie'), null, 'no cookie')
  t.match(linked.text, /these cards are not held for you/)
  t.match(
    linked.text,
    /<a href="\/review\?path=spam\.judge\.yaml&amp;node=spam&amp;reviewer=mallory&amp;audit=30">Hold/,
  )
  const image = await server.get(`${PAGE}&reviewer=mallory`, IMAGE)
  t.equal(image.status, 200)
  t.equal(image.headers.get('set-cookie'), null, 'no cookie from an image either')
  const twin = await server.get(TWIN, { 'x-reviewer': 'mallory', ...IMAGE })
  t.equal(twin.body.cards.length, 25)
  t.equal(twin.body.cards_held, 0)
  t.equal(twin.body.not_held, 'other_site')
  t.same(await holders(), [], 'nothing is held for mallory')

  const own = await server.get(`${PAGE}&reviewer=ann`, AT_PAGE)
  t.match(own.headers.get('set-cookie'), /^judge_reviewer=ann;/)
  t.notMatch(own.text, /not held for you/)
  t.same(await holders(), ['ann'], 'a page opened at the server holds its cards')
  const back = await server.get(`${TWIN}&reviewer=ann`, { ...AT_PAGE, 'sec-fetch-site': 'same-site' })
  t.equal(back.body.cards_held, 0, 'a sibling site holds nothing either')
  t.equal(back.body.progress.held, 25, 'but shows ann the cards she holds')
})
