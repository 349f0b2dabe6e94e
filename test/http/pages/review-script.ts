import t from 'tap'
import { createHash } from 'node:crypto'
import { REVIEW_SCRIPT, reviewScript } from '../../../src/http/pages/review-script.ts'
import { PAGE_HEADERS, SCRIPT_HASH } from '../../../src/http/reply.ts'

t.test('the keys script is the one script a page may run, allowed by its hash', async (t) => {
  t.equal(reviewScript().text, `<script>${REVIEW_SCRIPT}</script>`)
  t.equal(SCRIPT_HASH, `sha256-${createHash('sha256').update(REVIEW_SCRIPT).digest('base64')}`)
  t.match(PAGE_HEADERS['content-security-policy'], `script-src '${SCRIPT_HASH}';`)
  t.notMatch(
    PAGE_HEADERS['content-security-policy'],
    /unsafe-inline'[^;]*;[^;]*script|script-src[^;]*unsafe/,
    'no unsafe script source',
  )
  t.notMatch(REVIEW_SCRIPT, /<\/script/i, 'it cannot end its own element')
})

t.test("the script sends a card's note field with the verdict pressed on the card", async (t) => {
  t.match(REVIEW_SCRIPT, /addEventListener\('submit'/)
  t.match(REVIEW_SCRIPT, /querySelector\('input\.note'\)/)
  t.match(REVIEW_SCRIPT, /note\.name = 'note'/)
})
