import t from 'tap'
import { cpSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { buildExampleStore } from '../../examples/build-store.ts'
import { horizontalOverflow, openBrowser, openPage, screenshot, SKIP_BROWSER as skip } from '../helpers/browser.ts'
import { cli, ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'

const LIVE = 'sms/spam.judge.yaml'
const CANDIDATE = 'sms/candidates/spam-v2.judge.yaml'

t.test(
  'on the example: ten rows where the candidate differs reviewed blind in the browser, the live estimate unmoved, then the gate',
  { skip },
  async (t) => {
    const root = t.testdir({})
    cpSync(resolve(ROOT, 'examples'), root, {
      recursive: true,
      filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv'),
    })
    t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
    const env = { ENGINE: 'simulated', JUDGE_SERVER_TOKEN: 'tok-c' }
    const server = await startJudgeServer(t, root, env)
    // More live traffic, kept and shadowed by the candidate, until ten rows where the two differ wait for a label.
    const rows: { message: string }[] = parse(readFileSync(resolve(root, 'sms/messages.csv')), { columns: true })
    const compared = async () => (await server.get(`/v1/compare?path=${LIVE}&candidate=${CANDIDATE}&token=tok-c`)).body
    const waiting = async () =>
      (await server.get(`/v1/pages/review?path=${LIVE}&compare=${CANDIDATE}&token=tok-c`)).body.left.is_spam
    for (let i = 0; i < rows.length && (await waiting()) < 10; i += 100) {
      for (const { message } of rows.slice(i, i + 100))
        await server.post('/v1/judge?token=tok-c', { path: LIVE, row: { message }, log: true, shadow: CANDIDATE })
      for (let wait = 0, now = await compared(); wait < 100 && now.compared < now.kept; wait++, now = await compared())
        await new Promise((r) => setTimeout(r, 50))
    }
    const first = await compared()
    t.ok(
      (await waiting()) >= 10,
      `${first.questions.is_spam.discordant_rows} rows differ, ${await waiting()} without a label`,
    )
    const before = (await server.get(`/v1/accuracy?path=${LIVE}&token=tok-c`)).body

    const browser = await openBrowser(t)
    const page = await openPage(t, browser, 390)
    t.equal((await page.goto(`${server.url}/compare?path=${LIVE}&candidate=${CANDIDATE}&token=tok-c`))?.status(), 200)
    t.equal(await horizontalOverflow(page), 0, 'the comparison at 390 px: no sideways scroll')
    await Promise.all([
      page.waitForURL(/\/review\?.*compare=/),
      page
        .locator('#is_spam, section')
        .getByRole('link', { name: /Review \d+ more/ })
        .first()
        .click(),
    ])
    t.equal(await horizontalOverflow(page), 0, 'the comparison review at 390 px: no sideways scroll')
    await screenshot(page, 'compare-review-390')
    for (let i = 0; i < 10; i++) {
      const card = page.locator('section.review-card').first()
      const said = (await card.locator('span.label').first().textContent())!.trim()
      await Promise.all([page.waitForURL(/saved=/), card.getByRole('button', { name: `it is ${said}` }).click()])
      t.match(await page.locator('.banner').textContent(), /Saved the label of is_spam row/, `verdict ${i + 1} saved`)
    }
    const wide = await openPage(t, browser, 1280)
    await wide.goto(page.url())
    t.equal(await horizontalOverflow(wide), 0, 'the comparison review at 1280 px: no sideways scroll')
    await screenshot(wide, 'compare-review-1280')

    t.same(
      (await server.get(`/v1/accuracy?path=${LIVE}&token=tok-c`)).body,
      before,
      'the live accuracy estimate is the same after ten comparison verdicts',
    )
    const after = await compared()
    t.ok(
      after.questions.is_spam.reviewed >= 10,
      "the ten verdicts join the known rows at the front of the comparison's order",
    )
    t.equal(after.questions.is_spam.method, 'discordant rows')
    const gate = await cli(
      ['compare', LIVE, CANDIDATE, '--require', 'not-worse', '--json'],
      { ENGINE: 'simulated', JUDGE_PROJECTS: root },
      root,
    )
    const report = JSON.parse(gate.stdout)
    const notWorse = Object.values(report.questions as Record<string, { interval: [number, number] | null }>).every(
      (q) => q.interval !== null && q.interval[0] > -0.01,
    )
    t.equal(report.gate.met, notWorse, 'the gate reads the intervals')
    t.equal(gate.code, notWorse ? 0 : 1, `judge compare --require not-worse exits ${gate.code} as the figures say`)
  },
)
