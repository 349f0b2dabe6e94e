import t from 'tap'
import { cpSync } from 'node:fs'
import { resolve } from 'node:path'
import { buildExampleStore } from '../../examples/build-store.ts'
import { openBrowser, openPage, screenshot, SKIP_BROWSER as skip, wideTables } from '../helpers/browser.ts'
import { cli, ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'

t.test(
  'at 1280 px every table of every page fits its box: no column hides behind a sideways scroll',
  { skip },
  async (t) => {
    const root = t.testdir({})
    cpSync(resolve(ROOT, 'examples'), root, { recursive: true, filter: (src) => !src.includes('/.judge') })
    t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
    // The README's steps: a test run of the answer key after the data files' runs.
    t.equal((await cli(['test', 'sms'], { ENGINE: 'simulated' }, root)).code, 0)
    const server = await startJudgeServer(t, root, { ENGINE: 'simulated' })
    const path = 'sms/spam.judge.yaml'
    const browser = await openBrowser(t)
    const page = await openPage(t, browser, 1280)
    const [newest] = (await server.get(`/v1/runs?path=${path}`)).body
    const pages = [
      ['runs', `/runs?path=${path}`],
      ['runs-folder', '/runs?path=sms'],
      ['accuracy', `/accuracy?path=${path}`],
      ['home', '/'],
      ['run', `/runs/${newest.run_id}?path=${path}`],
      ['review', `/review?path=${path}`],
      ['compare', `/compare?path=${path}&candidate=sms/candidates/spam-v2.judge.yaml`],
    ]
    for (const [name, url] of pages) {
      t.equal((await page.goto(server.url + url))?.status(), 200, name)
      await screenshot(page, `tables-${name}-1280`)
      t.same(await wideTables(page), [], `${name}: every table fits at 1280 px`)
    }
    await page.goto(`${server.url}/runs?path=${path}`)
    const status = page.locator('table.runs tbody tr').first().locator('td[data-label="status"]')
    t.ok(await status.isVisible(), 'the status column shows')
    const box = await status.boundingBox()
    t.ok(box !== null && box.x + box.width <= 1280, `the status cell is inside the window: ${JSON.stringify(box)}`)
  },
)
