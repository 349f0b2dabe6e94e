import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'csv-parse/sync'
import { NOTE_MAX } from '../../../src/core/review/note.ts'
import { startJudgeServer } from '../../helpers/judge-server.ts'
import { verdictForms } from '../../helpers/review-forms.ts'
import { hashOf, REVIEW_ROWS, reviewProject } from '../../helpers/review-project.ts'

const PAGE = '/review?path=spam.judge.yaml&audit=2&reviewer=ann'

async function post(url: string, fields: Record<string, string>) {
  const res = await fetch(`${url}/review`, {
    method: 'POST',
    redirect: 'manual',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  })
  return { status: res.status, text: await res.text() }
}

const lines = (dir: string): Record<string, string>[] => {
  const file = join(dir, 'spam.reviews.csv')
  return existsSync(file) ? parse(readFileSync(file), { columns: true }) : []
}

t.test('every card has a note field; the note sent with a verdict is cleaned and kept in its line', async (t) => {
  const { dir } = await reviewProject(t)
  const server = await startJudgeServer(t, dir)
  const page = await server.get(PAGE)
  const cards = [...page.text.matchAll(/<section class="card review-card/g)].length
  t.ok(cards > 0)
  t.equal([...page.text.matchAll(/<input type="text" class="note" id="card-\d+-note" maxlength="280"/g)].length, cards)
  const form = verdictForms(page.text).find((f) => f.button === 'answer key is right')!
  const note = '  <script>alert(1)</script>\r\n"texting a friend" '
  t.equal((await post(server.url, { ...form.fields, note })).status, 303)
  t.same(
    lines(dir).map((l) => l.note),
    ['<script>alert(1)</script> "texting a friend"'],
  )

  const report = await server.get('/v1/accuracy?path=spam.judge.yaml')
  t.equal(report.status, 200)
  const { agreement } = report.body.questions.is_spam
  t.equal(agreement.disagreements_total, 1)
  t.match(agreement.disagreements, [
    {
      state_hash: hashOf(REVIEW_ROWS[1].message),
      reviewer: 'ann',
      verdict: 'key_right',
      note: '<script>alert(1)</script> "texting a friend"',
    },
  ])
  const html = await server.get('/accuracy?path=spam.judge.yaml')
  t.match(html.text, /<td>&lt;script&gt;alert\(1\)&lt;\/script&gt; &quot;texting a friend&quot;<\/td>/, 'escaped')
  t.notMatch(html.text, /<script>alert/)
})

t.test('a note longer than the bound is a 400 naming the field, and nothing is saved', async (t) => {
  const { dir } = await reviewProject(t)
  const server = await startJudgeServer(t, dir)
  const [form] = verdictForms((await server.get(PAGE)).text)
  const res = await post(server.url, { ...form.fields, note: 'x'.repeat(NOTE_MAX + 1) })
  t.equal(res.status, 400)
  t.match(res.text, `the field note holds at most ${NOTE_MAX} characters; this one has ${NOTE_MAX + 1}`)
  t.same(lines(dir), [])
  t.equal((await post(server.url, { ...form.fields, note: '   ' })).status, 303, 'a note of spaces is no note')
  t.same(
    lines(dir).map((l) => l.note),
    [''],
  )
})
