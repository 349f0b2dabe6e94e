import type { Test } from 'tap'
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core'
import { ROOT } from './cli.ts'

// Debian's Chromium, driven as it is installed: nothing is downloaded. CI installs it (.ci/run).
const CHROMIUM = '/usr/bin/chromium'
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Why the browser tests are skipped, or false when Chromium is there. */
export const SKIP_BROWSER = existsSync(CHROMIUM)
  ? false
  : `${CHROMIUM} is missing (apt-get install chromium); the browser tests need it`

/** Where screenshots go, to be looked at; git-ignored. */
export const OUTPUT = join(ROOT, 'test-output')

/** Starts Chromium, closed at teardown. */
export async function openBrowser(t: Test): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS })
  t.teardown(() => browser.close())
  return browser
}

/**
 * Opens a page `width` px wide that fails the test on any console error, such as a refused script
 * or style. Scripts are off by default: every page must work without them, as under the CSP.
 */
export async function openPage(
  t: Test,
  browser: Browser,
  width = 1280,
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled: false, ...options })
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error') t.fail(`console error: ${message.text()}`)
  })
  page.on('pageerror', (error) => t.fail(`page error: ${error.message}`))
  return page
}

/**
 * Presses Alt and a key as Chromium on Linux receives it from the keyboard, which is what fires an
 * `accesskey`. (Playwright's keyboard.press sends no key text with Alt held, so the browser would
 * see no access key.) Resolves once the page the key led to has loaded.
 */
export async function pressAccessKey(page: Page, key: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  const code = key >= '0' && key <= '9' ? `Digit${key}` : `Key${key.toUpperCase()}`
  const keyCode = key.toUpperCase().charCodeAt(0)
  const event = { modifiers: 1, key, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode }
  await Promise.all([
    page.waitForNavigation(),
    cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...event, unmodifiedText: key }),
  ])
  await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', ...event })
  await cdp.detach()
}

/** Presses Tab (or Shift+Tab, going back) until the element `selector` has the focus; fails after `most` presses. */
export async function tabTo(page: Page, selector: string, most = 40, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await page.evaluate(`document.activeElement === document.querySelector(${JSON.stringify(selector)})`)) return
    await page.keyboard.press(key)
  }
  throw new Error(`Tab never reached ${selector}`)
}

/** The page's width beyond the window's: 0 when nothing scrolls sideways. */
export async function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>
}

/** A table wider than the box it sits in: its class, its width and the box's. */
export interface WideTable {
  readonly table: string
  readonly width: number
  readonly room: number
}

/**
 * Every table of the page wider than its container (a `.table-wrap` scrolls it sideways, hiding
 * its last columns): its scrollWidth against the container's clientWidth. Empty when all fit.
 */
export async function wideTables(page: Page): Promise<WideTable[]> {
  return page.evaluate(`[...document.querySelectorAll('table')].map((t) => {
    const box = t.parentElement
    const name = (t.className || 'table') + ' (' + [...t.querySelectorAll('thead th')].map((h) => h.textContent.trim()).slice(0, 3).join(', ') + ')'
    return { table: name, width: t.scrollWidth, room: box.clientWidth }
  }).filter((t) => t.width > t.room)`) as Promise<WideTable[]>
}

/** Saves a screenshot of the whole page under test-output/, or of what the window shows (`fullPage` false). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true })
  await page.screenshot({ path: join(OUTPUT, `${name}.png`), fullPage })
}

/**
 * Fails the test on any console message of the page that is an error or a warning, such as a form control's
 * `pattern` the browser cannot compile; openPage fails on errors only.
 */
export function failOnWarnings(t: Test, page: Page): void {
  page.on('console', (message) => {
    if (message.type() === 'warning') t.fail(`console warning: ${message.text()}`)
  })
}
