import t from 'tap'
import { validReviewer } from '../../../src/adapters/files/reviews-file.ts'
import { progress, REVIEWER_PATTERN } from '../../../src/http/pages/review-progress.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

t.test("the reviewer-name field's pattern is the names the server takes, valid as browsers compile it", async (t) => {
  const header = progress(reviewPageData({ reviewer: null }), null).text
  const pattern = /<input name="reviewer" required maxlength="64" pattern="([^"]*)"/.exec(header)?.[1]
  t.equal(pattern, REVIEWER_PATTERN)
  // Browsers compile a pattern with the v flag, anchored: a pattern that fails to compile is ignored.
  const check = new RegExp(`^(?:${pattern})$`, 'v')
  for (const name of ['ann', 'Zoë K.', 'bob@example.org', 'a-b_c', '7'])
    t.ok(check.test(name) && validReviewer(name), `${name} is taken by both`)
  for (const name of ['-ann', '@ann', '=1+1', 'a<b', 'x'.repeat(65), ''])
    t.notOk(check.test(name) || validReviewer(name), `${JSON.stringify(name)} by neither`)
})

t.test(
  'the progress names the signer, what is left and what others hold; the name is asked when the page has none',
  async (t) => {
    const named = progress(reviewPageData(), null).text
    t.match(
      named,
      '<strong>4</strong> reviewed today by <strong>ann</strong> · <strong>3</strong> left in the queue</p>',
    )
    t.notMatch(named, /Your name/)
    const held = reviewPageData({ reviewers: [{ reviewer: 'bob', today: 0, all_time: 0, held: 2 }] })
    t.match(progress(held, null).text, 'left in the queue, 2 of them held by other reviewers')
    t.match(progress(reviewPageData({ reviewer: null }), 'tok').text, /<input type="hidden" name="token" value="tok">/)
  },
)
