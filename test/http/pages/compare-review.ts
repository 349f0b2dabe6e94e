import t from 'tap'
import { compareReviewPage, reviewModePage } from '../../../src/http/pages/compare-review.ts'
import type { CompareReviewData } from '../../../src/http/page-data/compare-review.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

const data: CompareReviewData = {
  path: 'sms/spam.judge.yaml',
  compare: 'sms/<cand>.judge.yaml',
  judgment: 'spam',
  candidate: 'spam-v2',
  reviewer: 'ann',
  signer: 'ann',
  left: { is_spam: 1 },
  saved: null,
  cards: [
    {
      question: 'is_spam',
      state_hash: 'abcdef0123456789',
      state: { message: 'WIN <b>now</b>' },
      shown: ['no', 'yes'],
      choices: ['yes', 'no'],
    },
  ],
}

t.test(
  'each row shows its state, the two labels given, and a button per label posting a comparison verdict',
  async (t) => {
    const html = compareReviewPage(data, 'tok').text
    t.match(html, /<td>WIN &lt;b&gt;now&lt;\/b&gt;<\/td>/, 'every value escaped')
    t.match(html, /candidate <code>sms\/&lt;cand&gt;\.judge\.yaml<\/code>/)
    t.match(html, /The two specs said <span class="label">no<\/span> and <span class="label">yes<\/span>\./)
    const forms = html.split('<form method="post" action="/review">').slice(1)
    t.equal(forms.length, 2)
    t.match(
      forms[0],
      /name="compare" value="sms\/&lt;cand&gt;\.judge\.yaml".*name="kind" value="compare".*name="verdict" value="labeled".*name="label" value="yes".*name="token" value="tok".*<button type="submit" class="primary">it is yes<\/button>/s,
    )
    t.match(html, /<li><code>is_spam<\/code>: 1 left<\/li>/)
    t.notMatch(html, /live label|candidate label/, 'nothing says which spec gave which')
  },
)

t.test(
  'a saved row is named; with none left the page links to the comparison; the review page picks its mode from its data',
  async (t) => {
    t.match(
      compareReviewPage({ ...data, saved: { question: 'is_spam', state_hash: 'abcdef0123456789' } }, null).text,
      /Saved the label of <code>is_spam<\/code> row <code>abcdef0123456789<\/code>/,
    )
    t.match(compareReviewPage({ ...data, cards: [], left: { is_spam: 0 } }, null).text, /None left here/)
    t.match(reviewModePage(data, null).text, /Rows where two specs differ/)
    t.match(reviewModePage(reviewPageData(), null).text, /<title>Review spam/)
  },
)
