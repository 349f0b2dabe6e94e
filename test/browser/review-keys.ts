import t, { type Test } from 'tap'
import { cpSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import type { Page } from 'playwright-core'
import { buildExampleStore } from '../../examples/build-store.ts'
import { horizontalOverflow, openBrowser, openPage, screenshot, SKIP_BROWSER as skip } from '../helpers/browser.ts'
import { ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'

/** The example project, its store built with the simulated engine, served as `npm start` serves it. */
async function example(t: Test) {
  const root = t.testdir({})
  cpSync(resolve(ROOT, 'examples'), root, {
    recursive: true,
    filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv'),
  })
  t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
  return { root, server: await startJudgeServer(t, root, { ENGINE: 'simulated' }) }
}

const current = (page: Page) => page.locator('section.review-card.current')
const field = (page: Page, name: string) => current(page).locator(`input[name=${name}]`).first().getAttribute('value')

for (const width of [1280, 390]) {
  t.test(
    `at ${width} px, with the page's script: ten cards reviewed with single keys, the guidelines beside the buttons`,
    { skip },
    async (t) => {
      const { root, server } = await example(t)
      // Scripts on: the keys script must run under the page's Content-Security-Policy (a refusal is a console error, failing the test).
      const page = await openPage(t, await openBrowser(t), width, { javaScriptEnabled: true })
      t.equal(
        (
          await page.goto(`${server.url}/review?path=sms/spam.judge.yaml&reviewer=ann&kind=unsure&question=topic`)
        )?.status(),
        200,
      )
      t.equal(await horizontalOverflow(page), 0, `no horizontal scroll at ${width} px`)
      const guidelines = current(page).locator('.guidelines')
      t.ok(await guidelines.isVisible(), 'the guidelines are on the card')
      t.match(await guidelines.textContent(), /personal.*Chat between people who know each other/)
      const first = current(page).locator('.verdicts button').first()
      const guide = current(page).locator(`#${await first.getAttribute('aria-describedby')}`)
      t.ok(await guide.isVisible(), "the first button's label description is beside it")
      const [button, described] = [await first.boundingBox(), await guide.boundingBox()]
      t.ok(
        button && described && described.y >= button.y + button.height - 1 && Math.abs(described.x - button.x) < 2,
        'right under its button',
      )
      await screenshot(page, `review-keys-${width}`)

      t.equal(await page.locator('#keys-help').isVisible(), false)
      await page.keyboard.press('?')
      t.equal(await page.locator('#keys-help').isVisible(), true, '? shows the keys')
      await page.keyboard.press('?')
      const skipped = await field(page, 'state')
      await page.keyboard.press('s')
      t.not(await field(page, 'state'), skipped, 's skips to the next card')
      t.equal(
        await page.evaluate('document.activeElement.closest("section").classList.contains("current")'),
        true,
        'whose first button has the focus',
      )

      const given: string[] = []
      for (let i = 0; i < 10; i++) {
        const state = (await field(page, 'state'))!
        const text = await current(page).locator('.verdicts button').first().textContent()
        t.match(text, /^1 label is right/, 'key 1 is the first button')
        await Promise.all([page.waitForURL(new RegExp(`saved=topic%3A${state}`)), page.keyboard.press('1')])
        given.push(state)
        t.match(await page.locator('.banner').textContent(), /^Saved: label is right/)
        t.equal(
          await page.evaluate(
            'document.activeElement === document.querySelector("section.review-card.current .verdicts button")',
          ),
          true,
          "the next card's first button has the focus",
        )
      }
      t.match(await page.locator('.progress').textContent(), /^10 reviewed today by ann/)
      await screenshot(page, `review-keys-saved-${width}`)
      await Promise.all([page.waitForURL(/undone=/), page.keyboard.press('u')])
      t.match(await page.locator('.banner').textContent(), /^Undone: /, 'u undoes the last verdict')

      const lines: Record<string, string>[] = parse(readFileSync(join(root, 'sms', 'spam.reviews.csv')), {
        columns: true,
      })
      t.same(
        lines.map((l) => l.state_hash),
        [...given, given.at(-1)],
        'ten verdicts, then the retraction of the last',
      )
      t.same(
        lines.map((l) => l.verdict),
        [...Array(10).fill('confirmed'), 'retracted'],
      )
    },
  )
}
