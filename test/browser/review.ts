import t, { type Test } from 'tap'
import { appendFileSync, cpSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parse } from 'csv-parse/sync'
import type { Page } from 'playwright-core'
import { buildExampleStore } from '../../examples/build-store.ts'
import {
  horizontalOverflow,
  openBrowser,
  openPage,
  pressAccessKey,
  screenshot,
  SKIP_BROWSER as skip,
  tabTo,
} from '../helpers/browser.ts'
import { cli, ROOT } from '../helpers/cli.ts'
import { startJudgeServer } from '../helpers/judge-server.ts'
import { hashOf, REVIEW_ROWS, reviewProject } from '../helpers/review-project.ts'

t.test(
  'a reviewer clicks a verdict in the browser, the row leaves the queue and judge test counts it',
  { skip },
  async (t) => {
    const { dir, env } = await reviewProject(t)
    const server = await startJudgeServer(t, dir, { JUDGE_SERVER_TOKEN: 'tok-b' })
    const page = await openPage(t, await openBrowser(t))
    const opened = await page.goto(`${server.url}/review?path=spam.judge.yaml&reviewer=ann&token=tok-b`)
    t.equal(opened?.status(), 200)
    await screenshot(page, 'review')

    const first = page.locator('section.review-card').first()
    t.equal(await first.locator('.kind').textContent(), 'disagrees with the key')
    t.equal(await page.evaluate('document.activeElement.tagName'), 'BODY', 'nothing takes the focus on load')
    const state = hashOf(REVIEW_ROWS[1].message)
    t.equal(await first.locator('input[name=state]').first().getAttribute('value'), state)
    await Promise.all([page.waitForURL(/saved=/), first.getByRole('button', { name: 'answer key is right' }).click()])

    t.equal(
      new URL(page.url()).pathname + new URL(page.url()).search,
      `/review?path=spam.judge.yaml&node=spam&reviewer=ann&audit=30&saved=is_spam%3A${state}&token=tok-b`,
    )
    t.match(
      await page.locator('.banner').textContent(),
      /^Saved: answer key is right \(is_spam, row [0-9a-f]{16}\) · Undo u$/,
    )
    const row = `form:has(input[name=question][value=is_spam]):has(input[name=state][value="${state}"])`
    t.equal(await page.locator(`.verdicts ${row}`).count(), 0, 'the card left the queue')
    t.equal(await page.locator('.counts li').nth(1).textContent(), '0 disagree with the key')
    const lines = parse(readFileSync(join(dir, 'spam.reviews.csv')), { columns: true })
    t.match(lines, [
      {
        reviewer: 'ann',
        question: 'is_spam',
        state_hash: state,
        kind: 'disagreement',
        verdict: 'key_right',
        labels: '["no"]',
      },
    ])
    t.equal(lines.length, 1)
    const test = await cli(['test', 'spam.judge.yaml', '--json'], env, dir)
    t.match(JSON.parse(test.stdout).spam.is_spam, { reviewed: 1, pending: 0, counted: 4, correct: 3 })
  },
)

/** The example project, its store built with the simulated engine, served as `npm start` serves it. */
async function example(t: Test) {
  const root = t.testdir({})
  cpSync(resolve(ROOT, 'examples'), root, {
    recursive: true,
    filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv'),
  })
  t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
  const server = await startJudgeServer(t, root, { ENGINE: 'simulated' })
  return { root, server }
}

/** Chooses a kind in the filter form by keyboard alone (Tab, arrow keys) and shows it (Enter on Show). */
async function filterByKeyboard(page: Page, kind: string): Promise<void> {
  // After a verdict the page opens at the rows (#queue), below the filters: back up to them.
  const below = await page.evaluate(
    'location.hash === "#queue" || (document.activeElement !== null && document.activeElement.closest("#queue") !== null)',
  )
  await tabTo(page, 'select[name=kind]', 40, below ? 'Shift+Tab' : 'Tab')
  const options = await page
    .locator('select[name=kind] option')
    .evaluateAll((all) => all.map((o) => (o as unknown as { value: string }).value))
  const from = options.indexOf(await page.locator('select[name=kind]').inputValue())
  const to = options.indexOf(kind)
  for (let i = from; i !== to; i += to > from ? 1 : -1) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp')
  await tabTo(page, '.settings button[type=submit]')
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')])
}

/** The kind and row of the first card, whose buttons carry the access keys. */
async function firstCard(page: Page): Promise<{ kind: string; question: string; state: string }> {
  const card = page.locator('section.review-card.current')
  const field = (name: string) => card.locator(`input[name=${name}]`).first().getAttribute('value') as Promise<string>
  return { kind: await field('kind'), question: await field('question'), state: await field('state') }
}

t.test(
  'by keyboard alone, without scripts: ten verdicts across two kinds through the filters, one undone, in the reviews file and judge test',
  { skip },
  async (t) => {
    const { root, server } = await example(t)
    const page = await openPage(t, await openBrowser(t), 390)
    t.equal((await page.goto(`${server.url}/review?path=sms/spam.judge.yaml&reviewer=ann`))?.status(), 200)
    t.equal(await page.evaluate('window.scrollY'), 0, 'the header stays in view: nothing scrolls it away')
    t.equal(await horizontalOverflow(page), 0, 'no horizontal scroll at 390 px')
    await screenshot(page, 'review-390')

    const given: { kind: string; question: string; state: string }[] = []
    for (const [kind, key] of [
      ['disagreement', 'k'],
      ['unsure', 'r'],
    ] as const) {
      await filterByKeyboard(page, kind)
      t.equal(new URL(page.url()).searchParams.get('kind'), kind, `filtered to ${kind}`)
      t.equal(
        await page.locator(`section.review-card:not(:has(.kind-${kind}))`).count(),
        0,
        `only ${kind} rows are shown`,
      )
      for (let i = 0; i < 5; i++) {
        const card = await firstCard(page)
        t.match(
          await page.locator(`section.review-card.current button[accesskey="${key}"]`).textContent(),
          new RegExp(` ${key}$`),
          'the key is shown on its button',
        )
        await pressAccessKey(page, key)
        given.push(card)
        t.match(await page.locator('.banner').textContent(), /^Saved: /, 'saved, with an undo')
        t.equal(new URL(page.url()).searchParams.get('kind'), kind, 'the filter is kept')
        t.equal(
          await page
            .locator(`input[name=state][value="${card.state}"]`)
            .and(page.locator(`section.review-card:has(input[name=question][value=${card.question}]) input`))
            .count(),
          0,
          'the row left the queue',
        )
      }
    }
    t.match(await page.locator('.progress').textContent(), /^10 reviewed today by ann · \d+ left in the queue$/)
    await screenshot(page, 'review-saved-390')

    await pressAccessKey(page, 'u')
    const undone = given.at(-1)!
    t.match(
      await page.locator('.banner').textContent(),
      `Undone: the verdict on ${undone.question}, row ${undone.state}, is withdrawn; it is back in the queue.`,
    )
    t.match(await page.locator('.progress').textContent(), /^9 reviewed today by ann/)
    t.equal(
      (await page.locator(`section.review-card input[name=state][value="${undone.state}"]`).count()) > 0,
      true,
      'the row is offered again',
    )

    const lines: Record<string, string>[] = parse(readFileSync(join(root, 'sms', 'spam.reviews.csv')), {
      columns: true,
    })
    t.same(
      lines.map((l) => `${l.kind} ${l.question} ${l.state_hash}`),
      [...given, undone].map((g) => `${g.kind} ${g.question} ${g.state}`),
      'ten verdict lines, then the retraction',
    )
    t.same(
      lines.map((l) => l.verdict),
      [...Array(5).fill('key_right'), ...Array(5).fill('confirmed'), 'retracted'],
    )
    t.ok(lines.every((l) => l.reviewer === 'ann'))
    const test = await cli(['test', 'sms/spam.judge.yaml', '--json'], { ENGINE: 'simulated' }, root)
    t.equal(test.code === 0 || test.code === 1, true, test.stderr)
    const scores = JSON.parse(test.stdout).spam
    for (const question of ['is_spam', 'topic', 'urgency']) {
      const standing = given.slice(0, 9).filter((g) => g.question === question).length
      t.equal(
        scores[question].reviewed,
        standing,
        `${question}: judge test counts the ${standing} standing verdicts, not the undone one`,
      )
    }
  },
)

t.test(
  'the example project shows a queue: disagreements first, every kind counted, 25 cards a page',
  { skip },
  async (t) => {
    const { server } = await example(t)
    const page = await openPage(t, await openBrowser(t))
    t.equal((await page.goto(`${server.url}/review?path=sms/spam.judge.yaml`))?.status(), 200)
    await screenshot(page, 'example-review')
    t.equal(await page.locator('section.review-card').count(), 25)
    const counts = await page.locator('.counts li').allTextContents()
    t.match(counts[1], /^\d+ disagree with the key$/)
    // Under allocation (the example's default) the spot checks come a run at a time: the chip counts those listed now,
    // and the rest, at least thirty per question in all, are said apart.
    const twin = (await server.get('/v1/pages/review?path=sms/spam.judge.yaml')).body
    const listed = Object.values(twin.listed_by_question as Record<string, { spot_check: number }>)
    const spotChecks = listed.reduce((n, q) => n + q.spot_check, 0)
    t.equal(counts[2], `${spotChecks} spot checks`, 'the spot checks listed now, as the JSON twin counts them')
    const later = Object.values(twin.spot_checks_later as Record<string, number>).reduce((n, k) => n + k, 0)
    t.ok(later > 0, 'more come later')
    t.equal(twin.left.spot_check, spotChecks + later, 'all of them, as left in the queue')
    t.ok(
      Object.values(twin.left_by_question as Record<string, { spot_check: number }>).every((q) => q.spot_check >= 30),
      'at least thirty spot checks per question',
    )
    t.match(await page.locator('.to-come').textContent(), `${later} more spot checks come later`)
    t.match(counts[3], /^\d+ unsure$/)
    t.equal(await page.locator('.kind').first().textContent(), 'disagrees with the key')
    t.equal(
      await page.getByRole('button', { name: 'answer key is right' }).count(),
      Math.min(25, Number.parseInt(counts[1])),
      'every disagreement on the page has its buttons',
    )
    await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Next →' }).click()])
    t.equal(new URL(page.url()).searchParams.get('page'), '2')
    t.match(await page.locator('.range').textContent(), /^Rows 26–50 of \d+ · page 2 of \d+\./)

    // Each chip leads to as many rows as it says, over as many pages as they fill: none empty.
    for (const [i, kind] of [
      [2, 'spot_check'],
      [3, 'unsure'],
    ] as const) {
      const chip = page.locator('.counts li').nth(i)
      const said = Number.parseInt((await chip.textContent())!)
      await Promise.all([page.waitForNavigation(), chip.locator('a').click()])
      let shown = await page.locator(`section.review-card.kind-${kind}, section.review-card:has(.kind-${kind})`).count()
      t.ok(shown > 0, `${kind}: the chip's rows are listed`)
      const pages = Math.ceil(said / 25)
      for (let n = 2; n <= Math.min(pages, 3); n++) {
        await Promise.all([page.waitForNavigation(), page.getByRole('link', { name: 'Next →' }).click()])
        const cards = await page.locator('section.review-card').count()
        t.ok(cards > 0, `${kind}: page ${n} of ${pages} lists rows`)
        shown += cards
      }
      if (pages <= 3) t.equal(shown, said, `${kind}: the chip's ${said} rows, all listed`)
      t.match(await page.locator('.range').textContent(), new RegExp(`of ${said}\\b`), `${kind}: the range counts them`)
    }
  },
)

t.test(
  'two reviewers in turn: a row chosen for a second review is offered to the second, blind, and to neither again',
  { skip },
  async (t) => {
    const root = t.testdir({})
    cpSync(resolve(ROOT, 'examples'), root, {
      recursive: true,
      filter: (src) => !src.includes('/.judge') && !src.endsWith('.reviews.csv'),
    })
    t.equal(await buildExampleStore(false, root, { write: () => true }), 0)
    // Every reviewed sample row is chosen, so that the first verdict is one the second reviewer sees.
    appendFileSync(join(root, 'sms', 'spam.judge.yaml'), 'double_review: 1\n')
    const server = await startJudgeServer(t, root, { ENGINE: 'simulated' })
    const browser = await openBrowser(t)
    const queue = (who: string) => `${server.url}/review?path=sms/spam.judge.yaml&reviewer=${who}&kind=spot_check`
    const ann = await openPage(t, browser)
    await ann.goto(queue('ann'))
    const row = await firstCard(ann)
    t.equal(row.kind, 'spot_check')
    const card = (page: Page) =>
      page.locator(
        `section.review-card:has(input[name=question][value=${row.question}]):has(input[name=state][value="${row.state}"])`,
      )
    await Promise.all([ann.waitForURL(/saved=/), card(ann).getByRole('button', { name: 'label is right' }).click()])
    t.equal(await card(ann).count(), 0, "the row left ann's queue")

    const bob = await openPage(t, browser, 390)
    await bob.goto(queue('bob'))
    t.equal(await card(bob).count(), 1, 'the row is offered to bob')
    t.notMatch(await card(bob).textContent(), /ann|label is right ·|Saved/, "without ann's verdict")
    await screenshot(bob, 'review-second-390')
    await Promise.all([bob.waitForURL(/saved=/), card(bob).getByRole('button', { name: 'label is right' }).click()])
    t.equal(await card(bob).count(), 0, "and leaves bob's queue once reviewed")
    await ann.goto(queue('ann'))
    t.equal(await card(ann).count(), 0, 'never offered to ann again')
    const cy = await openPage(t, browser)
    await cy.goto(queue('cy'))
    t.equal(await card(cy).count(), 0, 'two verdicts that agree: offered to no one else')
    await screenshot(cy, 'review-second-1280')
    const lines: Record<string, string>[] = parse(readFileSync(join(root, 'sms', 'spam.reviews.csv')), {
      columns: true,
    })
    t.same(
      lines.map((l) => [l.reviewer, l.state_hash, l.verdict]),
      [
        ['ann', row.state, 'confirmed'],
        ['bob', row.state, 'confirmed'],
      ],
    )

    for (const [page, width] of [
      [cy, 1280],
      [bob, 390],
    ] as const) {
      await page.goto(`${server.url}/accuracy?path=sms/spam.judge.yaml`)
      const section = page.locator(`section#${row.question}`)
      t.equal(
        await section.locator('h3', { hasText: 'Agreement with people' }).count(),
        1,
        `the accuracy page shows ${row.question}'s agreement`,
      )
      t.match(
        await section.textContent(),
        /Between reviewers: κ .*over 1 row reviewed twice/,
        'ann and bob measured against each other',
      )
      t.equal(await horizontalOverflow(page), 0, `no horizontal scroll at ${width} px`)
      await screenshot(page, `accuracy-agreement-${width}`)
    }
  },
)
