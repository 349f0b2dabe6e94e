import t from 'tap'
import { html } from '../../../src/http/html.ts'
import { layout } from '../../../src/http/pages/layout.ts'

t.test('the layout is a whole document with inline style and no scripts or external assets', async (t) => {
  const page = layout('Runs <x>', null, html`<p>body</p>`).text
  t.match(page, /^<!doctype html>\n<html lang="en">/)
  t.match(page, /<title>Runs &lt;x&gt; · judge<\/title>/)
  t.match(page, /<style>[^<]+<\/style>/)
  t.match(page, /<main>\n<p>body<\/p>\n<\/main>/)
  t.notMatch(page, /<script|<link|src=|@import|url\(/i)
  t.match(page, /<a class="brand" href="\/">judge<\/a>/)
})

t.test('the link home carries the token on', async (t) => {
  t.match(layout('x', 'a&b', html``).text, /<a class="brand" href="\/\?token=a%26b">judge<\/a>/)
})

t.test('a page may start with a link that skips to its content', async (t) => {
  t.match(
    layout('x', null, html``, { skip: { id: 'queue', text: 'the rows' } }).text,
    /<body>\n<a class="skip" href="#queue">Skip to the rows<\/a>\n<header class="site">/,
  )
  t.notMatch(layout('x', null, html``).text, /class="skip"/)
})
