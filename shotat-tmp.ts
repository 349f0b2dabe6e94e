import { chromium } from 'playwright-core'
const [,, url, name, width = '1280', selector = 'body'] = process.argv
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const p = await b.newPage({ viewport: { width: Number(width), height: 900 } })
await p.goto(url)
await p.locator(selector).first().scrollIntoViewIfNeeded()
await p.evaluate((s) => document.querySelector(s)!.scrollIntoView(), selector)
await p.screenshot({ path: `/tmp/i14/shots/${name}.png` })
await b.close()
