import t from 'tap'
import { routesSection } from '../../../src/http/pages/run-routes.ts'

t.test(
  'the routes section has a table per question with act rules, rows and shares, unrouted rows muted',
  async (t) => {
    const text = routesSection({ is_spam: { block: 1, deliver: 2, '': 1 } }, 4).text
    t.match(text, /<h2>Routes<\/h2>/)
    t.match(text, /<th><code>is_spam<\/code> route<\/th>/)
    t.match(text, /<tr><td>block<\/td><td class="num">1<\/td><td class="num">25\.0%<\/td><\/tr>/)
    t.match(text, /<tr><td><span class="muted">no route<\/span><\/td><td class="num">1<\/td>/)
    t.match(routesSection({ q: { a: 0 } }, 0).text, /<td class="num">0<\/td><td class="num">–<\/td>/)
  },
)

t.test('a run without routes says why there are none', async (t) => {
  for (const routes of [undefined, {}])
    t.match(
      routesSection(routes, 3).text,
      /No routes counted: the spec had no <code>act<\/code> rules, or the run was recorded before runs counted their routes/,
    )
})
