import t, { type Test } from 'tap'
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import { chromium, type Browser, type Page } from 'playwright-core'
import { buildExampleStore } from '../../examples/build-store.ts'
import { cli, ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { hashOf, REVIEW_ROWS, reviewProject } from '../helpers/review-project.ts'

// Debian's Chromium, driven as it is installed: nothing is downloaded. CI installs it (.ci/run).
const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const skip = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium); the browser tests need it`

/** Where screenshots go, to be looked at; git-ignored. */
const OUTPUT = join(ROOT, 'test-output')

async function openBrowser(t: Test): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  t.teardown(() => browser.close())
  return browser
}

/** Opens a page that fails the test on any console error, such as a refused script or style. */
async function openPage(t: Test, browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1200, height: 1500 } })
  page.on('console', (message) => {
    if (message.type() === 'error') t.fail(`console error: ${message.text()}`)
  })
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`))
  return page
}

t.test('a reviewer clicks a verdict in the browser, the row leaves the queue and judge test counts it', { skip }, async (t) => {
  const { dir, env } = await reviewProject(t)
  const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-b' })
  const page = await openPage(t, await openBrowser(t))
  const opened = await page.goto(`${server.url}/review?path=spam.judge.yaml&reviewer=ann&token=tok-b`)
  t.equal(opened?.status(), 200)
  mkdirSync(OUTPUT, { recursive: true })
  await page.screenshot({ path: join(OUTPUT, 'review.png') })

  const first = page.locator('section.review-card').first()
  t.equal(await first.locator('.kind').textContent(), 'disagrees with the key')
  t.equal(await page.locator(':focus').textContent(), 'model is right', 'the first button has the focus on load')
  const state = hashOf(REVIEW_ROWS[1].message)
  t.equal(await first.locator('input[name=state]').first().getAttribute('value'), state)
  await Promise.all([page.waitForURL(/reviewer=ann/), first.getByRole('button', { name: 'answer key is right' }).click()])

  t.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/review?path=spam.judge.yaml&node=spam&reviewer=ann&audit=30&token=tok-b')
  const row = `form:has(input[name=question][value=is_spam]):has(input[name=state][value="${state}"])`
  t.equal(await page.locator(row).count(), 0, 'the card left the queue')
  t.equal(await page.locator('.counts li').first().textContent(), '0 disagree with the key')
  const lines = parse(readFileSync(join(dir, 'spam.reviews.csv')), { columns: true })
  t.match(lines, [{ reviewer: 'ann', question: 'is_spam', state_hash: state, kind: 'disagreement', verdict: 'key_right', labels: '["no"]' }])
  t.equal(lines.length, 1)
  const test = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
  t.match(JSON.parse(test.stdout).spam.is_spam, { reviewed: 1, pending: 0, counted: 4, correct: 3 })
})

t.test('the example project shows a queue in the browser: disagreements first, then spot checks, and unsure rows counted', { skip }, async (t) => {
  const root = t.testdir({})
  cpSync(resolve(ROOT, 'examples'), root, { recursive: true, filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv') })
  t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
  // The example's store holds the simulated engine's answers, under its own model id.
  const server = await startJudgeServer(t, root, { ENGINE: 'simulated' })
  const page = await openPage(t, await openBrowser(t))
  t.equal((await page.goto(`${server.url}/review?path=sms/spam.judge.yaml`))?.status(), 200)
  mkdirSync(OUTPUT, { recursive: true })
  await page.screenshot({ path: join(OUTPUT, 'example-review.png') })
  t.equal(await page.locator('section.review-card').count(), 25)
  const counts = await page.locator('.counts li strong').allTextContents()
  t.ok(Number(counts[0]) > 0, 'rows disagree with the key')
  t.equal(counts[1], '90', 'thirty spot checks per question')
  t.ok(Number.parseInt(counts[2]) > 0, 'unsure rows wait too')
  t.equal(await page.locator('.kind').first().textContent(), 'disagrees with the key')
  t.equal(await page.getByRole('button', { name: 'answer key is right' }).count(), Number(counts[0]), 'every disagreement on the page has its buttons')
})
