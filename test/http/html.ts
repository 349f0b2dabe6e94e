import t from 'tap'
import { escapeHtml, href, html, raw, tokenField, withToken } from '../../src/http/html.ts'

t.test('every interpolated value is escaped, quotes included', async (t) => {
  t.equal(
    html`<p title="${`"x' & <y>`}">${'<script>alert(1)</script>'}</p>`.text,
    '<p title="&quot;x&#39; &amp; &lt;y&gt;">&lt;script&gt;alert(1)&lt;/script&gt;</p>',
  )
  t.equal(escapeHtml('a&b'), 'a&amp;b')
})

t.test('nested templates and raw markup are inserted as they are, once escaped', async (t) => {
  const inner = html`<b>${'<i>'}</b>`
  t.equal(html`<p>${inner}${raw('<br>')}</p>`.text, '<p><b>&lt;i&gt;</b><br></p>')
  t.equal(String(inner), '<b>&lt;i&gt;</b>')
})

t.test('arrays are joined and null, undefined and false render nothing', async (t) => {
  t.equal(html`<ul>${['<a>', html`<li>b</li>`, ['c', 1]]}</ul>`.text, '<ul>&lt;a&gt;<li>b</li>c1</ul>')
  t.equal(html`${null}${undefined}${false}${0}${true}`.text, '0true')
})

t.test('links carry the token on only when there is one', async (t) => {
  t.equal(href('/runs', { path: 'a b/c&d', node: undefined }, null), '/runs?path=a+b%2Fc%26d')
  t.equal(href('/runs', { path: 'sms' }, 's&cret'), '/runs?path=sms&token=s%26cret')
  t.equal(href('/', {}, 'tok'), '/?token=tok')
  t.equal(href('/', {}, null), '/')
  t.equal(withToken('/review?path=x', 'tok'), '/review?path=x&token=tok')
})

t.test('the token form field is a hidden, escaped input, or nothing', async (t) => {
  t.equal(tokenField('a"b').text, '<input type="hidden" name="token" value="a&quot;b">')
  t.equal(tokenField(null).text, '')
})
