import t from 'tap'
import { percent } from '../../src/format.ts'
import { accuracyProject } from '../helpers/accuracy-project.ts'
import { openBrowser, openPage, screenshot, SKIP_BROWSER as skip } from '../helpers/browser.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'

t.test(
  'the accuracy page, reached from the home and runs pages, shows the figures of GET /v1/accuracy',
  { skip },
  async (t) => {
    const { dir } = accuracyProject(t, 6000, 0.25)
    const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-a' })
    const page = await openPage(t, await openBrowser(t), 1200)

    t.equal((await page.goto(`${server.url}/?token=tok-a`))?.status(), 200)
    await Promise.all([page.waitForURL(/\/accuracy\?/), page.getByRole('link', { name: 'accuracy' }).first().click()])
    const url = new URL(page.url())
    t.equal(url.searchParams.get('node'), 'spam')
    t.equal(url.searchParams.get('token'), 'tok-a', 'the token is carried on')
    await screenshot(page, 'accuracy')

    const api = await server.get(`/v1/accuracy?${url.searchParams}`)
    t.equal(api.status, 200)
    const q = api.body.questions.is_spam
    t.equal(await page.locator('h1').textContent(), 'Accuracy of spam')
    const figure = await page.locator('#is_spam .figure').textContent()
    t.match(
      figure,
      `Estimated accuracy ${percent(q.estimate.point)} (95% interval ${percent(q.estimate.interval[0])} to ${percent(q.estimate.interval[1])}) over all 6000 answers.`,
    )
    t.match(
      await page.locator('#is_spam').textContent(),
      `Pooled over the ${q.estimate.naive.counted} rows with a known label: ${percent(q.estimate.naive.accuracy)}`,
    )
    t.same(
      await page.locator('#is_spam table').first().locator('tbody td:first-child').allTextContents(),
      ['unsure', 'confident'],
      'the strata',
    )
    const plot = page.locator('#is_spam svg.reliability')
    t.equal(await plot.getAttribute('role'), 'img')
    t.match(await plot.getAttribute('aria-label'), `expected calibration error ${percent(q.calibration.ece)}`)
    t.equal(
      await plot.locator('circle').count(),
      q.calibration.bins.filter((b: { accuracy: number | null }) => b.accuracy !== null).length,
      'one dot per bin with a sample',
    )
    const suggested = q.thresholds[0].suggested.threshold
    t.match(await page.locator('#is_spam').textContent(), `Suggested: p: ">= ${suggested}"`)
    t.match(
      await page.locator('#is_spam details tr.chosen td').first().textContent(),
      String(suggested),
      'the chosen row of the threshold table',
    )
    t.equal(await page.locator('pre').textContent(), api.body.act, 'the act block to paste, as the API gives it')
    t.match(await page.locator('#is_spam').textContent(), `${percent(q.mix.corrected.yes.share)}`, 'the corrected mix')

    await Promise.all([page.waitForURL(/\/runs\?/), page.getByRole('link', { name: 'runs', exact: true }).click()])
    await Promise.all([
      page.waitForURL(/\/accuracy\?/),
      page.getByRole('link', { name: 'accuracy and calibration of spam' }).click(),
    ])
    t.equal(await page.locator('h1').textContent(), 'Accuracy of spam', 'the runs page links back to it')
  },
)
