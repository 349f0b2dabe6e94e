import t from 'tap'
import { cpSync } from 'node:fs'
import { resolve } from 'node:path'
import { buildExampleStore } from '../../examples/build-store.ts'
import { horizontalOverflow, openBrowser, openPage, screenshot, SKIP_BROWSER as skip } from '../helpers/browser.ts'
import { ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'

t.test(
  'every page of the example, at 1280 and 390 px: no sideways scroll, a visible focus, a screenshot',
  { skip },
  async (t) => {
    const root = t.testdir({})
    cpSync(resolve(ROOT, 'examples'), root, {
      recursive: true,
      filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv'),
    })
    t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
    const server = await startJudgeServer(t, root, { ENGINE: 'simulated', JUDGE_SERVER_TOKEN: 'tok-p' })
    const path = 'sms/spam.judge.yaml'
    const [newest] = (await server.get(`/v1/runs?path=${path}&token=tok-p`)).body
    const pages: [string, string, RegExp][] = [
      ['home', '/?token=tok-p', /^Projects$/],
      ['review', `/review?path=${path}&token=tok-p`, /^Review spam$/],
      ['runs', `/runs?path=${path}&token=tok-p`, /^Runs of /],
      ['run', `/runs/${newest.run_id}?path=${path}&token=tok-p`, new RegExp(`^Run ${newest.run_id}$`)],
      ['run-page-2', `/runs/${newest.run_id}?path=${path}&page=2&token=tok-p`, new RegExp(`^Run ${newest.run_id}$`)],
      ['accuracy', `/accuracy?path=${path}&token=tok-p`, /^Accuracy of spam$/],
      [
        'compare',
        `/compare?path=${path}&candidate=sms/candidates/spam-v2.judge.yaml&token=tok-p`,
        /^Compare spam_v2 with spam$/,
      ],
    ]
    const browser = await openBrowser(t)
    for (const width of [1280, 390]) {
      const page = await openPage(t, browser, width)
      for (const [name, url, heading] of pages) {
        t.equal((await page.goto(server.url + url))?.status(), 200, `${name} at ${width} px`)
        t.match((await page.locator('h1').first().textContent())?.trim(), heading, `${name}: its heading`)
        t.equal(await horizontalOverflow(page), 0, `${name} at ${width} px: no horizontal scroll`)
        await page.keyboard.press('Tab')
        const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle')
        t.not(outline, 'none', `${name}: the focused element shows its focus`)
        await screenshot(page, `${name}-${width}`)
      }
    }
  },
)
