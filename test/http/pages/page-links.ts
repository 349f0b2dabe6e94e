import t from 'tap'
import { pageLinks } from '../../../src/http/pages/page-links.ts'

const to = (page: number) => `/rows?page=${page}`

t.test('the first page links only forward, the last only back, a middle one both ways', async (t) => {
  t.equal(
    pageLinks(1, 3, to).text,
    '<nav class="pager" aria-label="pages of rows"><span class="muted">← Previous</span>' +
      '<span>Page 1 of 3</span><a rel="next" href="/rows?page=2">Next →</a></nav>',
  )
  t.match(
    pageLinks(2, 3, to).text,
    /<a rel="prev" href="\/rows\?page=1">← Previous<\/a>.*<a rel="next" href="\/rows\?page=3">/,
  )
  t.match(pageLinks(3, 3, to).text, /<a rel="prev" href="\/rows\?page=2">.*<span class="muted">Next →<\/span>/)
})

t.test('an address is escaped as every value of a page is', async (t) => {
  t.match(pageLinks(1, 2, () => '/r?a=1&b="2"').text, /href="\/r\?a=1&amp;b=&quot;2&quot;"/)
})
