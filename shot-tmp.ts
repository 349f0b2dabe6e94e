import { chromium } from 'playwright-core'
const [,, url, name, width = '1280', full = 'yes'] = process.argv
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] })
const p = await b.newPage({ viewport: { width: Number(width), height: 900 } })
p.on('console', (m) => console.log('console', m.type(), m.text()))
await p.goto(url)
await p.screenshot({ path: `/tmp/i14/shots/${name}.png`, fullPage: full === 'yes' })
console.log('scroll', await p.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]))
await b.close()
