import t from 'tap'
import { errorPage } from '../../../src/http/pages/error.ts'
import { html } from '../../../src/http/html.ts'

t.test('an error page shows the status, its reason and the escaped message', async (t) => {
  const page = errorPage(404, 'no such file: <script>', 'tok').text
  t.match(page, /<title>404 Not Found · judge<\/title>/)
  t.match(page, /<h1>404 Not Found<\/h1>\n<p class="error">no such file: &lt;script&gt;<\/p>/)
  t.match(page, /href="\/\?token=tok"/)
})

t.test('a status without a reason phrase still renders', async (t) => {
  t.match(errorPage(599, 'odd', null).text, /<h1>599 Error<\/h1>/)
})

t.test('an error page carries what to do after the message', async (t) => {
  t.match(
    errorPage(400, 'path is required', null, html`<p>Choose one</p>`).text,
    /<p class="error">path is required<\/p>\n<p>Choose one<\/p>/,
  )
})
