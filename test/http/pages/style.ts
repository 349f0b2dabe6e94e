import t from 'tap'
import { STYLE } from '../../../src/http/pages/style.ts'

t.test('the style sheet loads nothing and keeps every page within a narrow screen', async (t) => {
  t.notMatch(STYLE.text, /@import|url\(|<\//i)
  t.match(STYLE.text, /@media \(prefers-color-scheme: dark\)/, 'a dark scheme')
  t.match(STYLE.text, /:focus-visible[^}]*outline: 3px solid/, 'visible focus')
  t.match(STYLE.text, /\.table-wrap \{ overflow-x: auto;/, 'wide tables scroll inside their box, not the page')
  t.match(STYLE.text, /@media \(max-width: 40rem\)/, 'a layout for narrow screens')
})
