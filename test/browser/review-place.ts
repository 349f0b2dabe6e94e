import t, { type Test } from 'tap'
import { cpSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { buildExampleStore } from '../../examples/build-store.ts'
import { failOnWarnings, openBrowser, openPage, screenshot, SKIP_BROWSER as skip } from '../helpers/browser.ts'
import { ROOT } from '../helpers/cli.ts'
import { startJudgeServer, type JudgeServer } from '../helpers/judge-server.ts'

/** The example project, its store built with the simulated engine, served as `npm start` serves it. */
async function example(t: Test): Promise<JudgeServer> {
  const root = t.testdir({})
  cpSync(resolve(ROOT, 'examples'), root, {
    recursive: true,
    filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv'),
  })
  t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
  return startJudgeServer(t, root, { ENGINE: 'simulated' })
}

// A laptop's window and a phone's, the phone tapped rather than clicked.
const SCREENS = [
  { name: '1280', viewport: { width: 1280, height: 800 }, phone: false },
  { name: '390', viewport: { width: 390, height: 844 }, phone: true },
] as const

const QUEUE = '/review?path=sms/spam.judge.yaml&reviewer=ann&question=topic'

const current = (page: Page) => page.locator('section.review-card.current')

/** Where an element is in the window: its top and bottom, in px from the window's top. */
async function placeOf(locator: Locator): Promise<{ top: number; bottom: number }> {
  const box = await locator.boundingBox()
  if (box === null) throw new Error('not shown')
  return { top: box.y, bottom: box.y + box.height }
}

/**
 * Checks that the banner (what the last action did) and the current card's heading and question are in the window,
 * the question not under the banner; and saves what the window shows.
 */
async function oriented(t: Test, page: Page, banner: RegExp, shot: string): Promise<void> {
  const height = page.viewportSize()!.height
  t.match(await page.locator('.banner').textContent(), banner)
  const said = await placeOf(page.locator('.banner'))
  const heading = await placeOf(current(page).locator('h2'))
  const question = await placeOf(current(page).locator('.ask'))
  t.ok(said.top >= 0 && said.bottom <= height, `${shot}: the banner is in view (${said.top}–${said.bottom})`)
  t.ok(heading.top >= said.bottom - 1, `${shot}: the card's heading is under the banner, not behind it`)
  t.ok(question.bottom <= height, `${shot}: the question is in view (${question.top}–${question.bottom} of ${height})`)
  await screenshot(page, `review-place-${shot}`, false)
}

/** Presses a button as the screen's user does: a tap on a phone, a click elsewhere; resolves once the page loaded. */
async function press(page: Page, button: Locator, phone: boolean, url: RegExp): Promise<void> {
  await Promise.all([page.waitForURL(url), phone ? button.tap() : button.click()])
  await page.waitForLoadState('load')
}

for (const screen of SCREENS) {
  for (const scripts of [true, false]) {
    const how = scripts ? "with the page's script" : 'without scripts'
    t.test(
      `at ${screen.viewport.width}×${screen.viewport.height}, ${how}: after a verdict, an undo${scripts ? ' and a skip' : ''}, the banner and the current question are in view`,
      { skip },
      async (t) => {
        const server = await example(t)
        const page = await openPage(t, await openBrowser(t), screen.viewport.width, {
          viewport: screen.viewport,
          javaScriptEnabled: scripts,
          hasTouch: screen.phone,
          isMobile: screen.phone,
        })
        failOnWarnings(t, page)
        t.equal((await page.goto(server.url + QUEUE))?.status(), 200)
        const tag = `${screen.name}${scripts ? '' : '-noscript'}`

        const state = await current(page).locator('input[name=state]').first().getAttribute('value')
        await press(page, current(page).locator('.verdicts button').first(), screen.phone, /saved=/)
        t.match(page.url(), /#queue$/, 'the page opens at the rows')
        t.not(await current(page).locator('input[name=state]').first().getAttribute('value'), state, 'the next card')
        await oriented(t, page, /^Saved: /, `verdict-${tag}`)

        const undo = page.locator('.banner').getByRole('button', { name: /^Undo/ })
        t.ok(await undo.isVisible(), 'the undo is a button in view, for a phone, which has no u key')
        await press(page, undo, screen.phone, /undone=/)
        await oriented(t, page, /^Undone: /, `undo-${tag}`)
        t.equal(
          await current(page).locator('input[name=state]').first().getAttribute('value'),
          state,
          'the row is back',
        )

        if (!scripts) return
        t.equal(
          await page.evaluate(
            'document.activeElement === document.querySelector(".review-card.current .verdicts button")',
          ),
          true,
          'the first button has the focus, given without scrolling to it',
        )
        await page.keyboard.press('s')
        t.not(await current(page).locator('input[name=state]').first().getAttribute('value'), state, 's skips')
        await oriented(t, page, /^Undone: /, `skip-${tag}`)
      },
    )
  }
}

t.test(
  'the review page logs no console error or warning: the name field is checked by the browser itself',
  { skip },
  async (t) => {
    const server = await example(t)
    const page = await openPage(t, await openBrowser(t), 390, { javaScriptEnabled: true })
    failOnWarnings(t, page)
    t.equal((await page.goto(`${server.url}/review?path=sms/spam.judge.yaml`))?.status(), 200)
    const name = page.locator('form.who input[name=reviewer]')
    // A pattern the browser cannot compile is reported on the console and leaves every name valid.
    await name.fill('-ann')
    t.equal(
      await name.evaluate(
        (input) => (input as unknown as { validity: { patternMismatch: boolean } }).validity.patternMismatch,
      ),
      true,
      '-ann is refused',
    )
    await name.fill('Zoë K.')
    t.equal(
      await name.evaluate((input) => (input as unknown as { validity: { valid: boolean } }).validity.valid),
      true,
      'Zoë K. is taken',
    )
    await Promise.all([page.waitForURL(/reviewer=Zo/), name.press('Enter')])
    t.match(await page.locator('.progress').textContent(), /reviewed today by Zoë K\./)
    await Promise.all([page.waitForURL(/saved=/), current(page).locator('.verdicts button').first().click()])
    await page.keyboard.press('?')
    t.ok(await page.locator('#keys-help').isVisible(), '? shows more about keys')
    await screenshot(page, 'review-console-390')
  },
)
