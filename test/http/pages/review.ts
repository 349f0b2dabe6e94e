import t from 'tap'
import type { Card } from '../../../src/core/review/queue.ts'
import { verdictChoices, type Kind } from '../../../src/core/review/verdicts.ts'
import { KIND_TEXT, reviewPage } from '../../../src/http/pages/review.ts'
import type { ReviewData } from '../../../src/http/pages/review.ts'
import { verdictForms as forms } from '../../helpers/review-forms.ts'
import { spec } from '../../helpers/specs.ts'

const judgment = spec()
const [isSpam, topic] = judgment.questions

function card(kind: Kind, question: typeof isSpam, state: Record<string, string>, model: string, key: string | null): Card {
  const others = question.labels.filter((label) => label !== model)
  const top = [{ label: model, p: 0.7 }, ...others.map((label) => ({ label, p: 0.3 / others.length }))]
  return {
    judgment: 'spam', question: question.name, stateHash: `${kind.slice(0, 4)}0123456789ab`, kind, stratum: 'confident', rank: 1, state,
    modelLabel: model, p: 0.7, margin: 0.4, top: top.slice(0, 3), keyLabel: key,
    verdicts: verdictChoices(kind, question, { modelLabel: model, keyLabel: key }),
  }
}

const data: ReviewData = {
  path: 'sms/spam.judge.yaml',
  judgment: 'spam',
  judgments: ['spam', 'tone'],
  reviewer: 'ann',
  audit: 5,
  asks: Object.fromEntries(judgment.questions.map((q) => [q.name, q.ask])),
  counts: { disagreement: 1, spot_check: 1, unsure: 1 },
  moreUnsure: false,
  cards: [
    card('disagreement', isSpam, { message: 'See you at lunch' }, 'yes', 'no'),
    card('spot_check', topic, { message: 'Your parcel is on its way', sender: 'post' }, 'service', null),
    card('unsure', isSpam, { message: '<script>alert(1)</script> & "x"' }, 'no', null),
  ],
  model: 'jev-1.13.0',
}

/** The section of a page holding card number `n` (1-based). */
function section(page: string, n: number): string {
  return page.split('<section class="card review-card"')[n]
}

t.test('each card shows its kind in words, the question, the state, the model\'s top labels and the key\'s label', async (t) => {
  const page = reviewPage(data, null).text
  t.match(section(page, 1), /<span class="kind kind-disagreement">disagrees with the key<\/span> <code>is_spam<\/code>/)
  t.match(section(page, 1), /<p class="ask">Is this message unsolicited advertising or a scam\?<\/p>/)
  t.match(section(page, 1), /<tr><th scope="row">message<\/th><td>See you at lunch<\/td><\/tr>/)
  t.match(section(page, 1), /<li class="first"><span class="label">yes<\/span> 70\.0%<\/li><li><span class="label">no<\/span> 30\.0%<\/li>/)
  t.match(section(page, 1), /Answer key<\/span> <span class="label">no<\/span>/)
  t.notMatch(section(page, 1), /Label under check/)
  t.match(section(page, 2), /<span class="kind kind-spot_check">spot check<\/span> <code>topic<\/code>/)
  t.match(section(page, 2), /<th scope="row">message<\/th><td>Your parcel is on its way<\/td><\/tr><tr><th scope="row">sender<\/th><td>post<\/td>/, 'every state column')
  t.equal(section(page, 2).match(/<li/g)?.length, 3, 'at most three labels')
  t.match(section(page, 2), /Answer key<\/span> <span class="muted">no label<\/span>/)
  t.match(section(page, 2), /Label under check<\/span> <span class="label">service<\/span>/)
  t.match(section(page, 3), /<span class="kind kind-unsure">unsure<\/span>/)
  t.same(KIND_TEXT, { disagreement: 'disagrees with the key', spot_check: 'spot check', unsure: 'unsure' })
})

t.test('each card has one real button per verdict that fits it, with the seed\'s texts', async (t) => {
  const page = reviewPage(data, null).text
  const texts = (n: number) => forms(section(page, n)).map((f) => f.button)
  t.same(texts(1), ['model is right', 'answer key is right', 'both acceptable', 'needs more context', 'ambiguous'])
  t.same(texts(2), ['label is right', 'it is personal', 'it is promotion', 'needs more context', 'ambiguous'])
  t.same(texts(3), ['label is right', 'it is yes', 'needs more context', 'ambiguous'])
  t.ok(forms(page).every((f) => /^type="submit"/.test(f.attributes)), 'every verdict is a submit button')
  t.equal(page.match(/ autofocus/g)?.length, 1, 'only the first button takes the focus')
  t.match(forms(page)[0].attributes, /autofocus/)
})

t.test('each verdict form carries the fields POST /review takes, and the label only for labeled', async (t) => {
  const all = forms(reviewPage(data, null).text)
  t.same(all[0].fields, { path: 'sms/spam.judge.yaml', node: 'spam', question: 'is_spam', state: 'disa0123456789ab', kind: 'disagreement', verdict: 'model_right', reviewer: 'ann', audit: '5' })
  const labeled = all.find((f) => f.button === 'it is promotion')!
  t.same(labeled.fields, { path: 'sms/spam.judge.yaml', node: 'spam', question: 'topic', state: 'spot0123456789ab', kind: 'spot_check', verdict: 'labeled', label: 'promotion', reviewer: 'ann', audit: '5' })
  t.ok(all.every((f) => !('token' in f.fields)), 'no token without one')
  const anonymous = forms(reviewPage({ ...data, reviewer: null }, null).text)
  t.ok(anonymous.every((f) => f.fields.reviewer === ''), 'no reviewer: the field is empty and the server signs')
})

t.test('a token that came in the query or a form is carried in every form and link', async (t) => {
  const page = reviewPage(data, 'tok&1').text
  t.ok(forms(page).every((f) => f.fields.token === 'tok&1'))
  t.match(page, /<input type="hidden" name="token" value="tok&amp;1"><button/)
  t.match(page, /<form method="get" action="\/review" class="settings">[\s\S]*<input type="hidden" name="token" value="tok&amp;1">/)
  t.match(page, /href="\/runs\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;token=tok%261">runs and drift<\/a>/)
  t.match(page, /href="\/\?token=tok%261">all projects<\/a>/)
  t.match(page, /href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=tone&amp;reviewer=ann&amp;audit=5&amp;token=tok%261">review tone<\/a>/)
})

t.test('state values, labels and paths holding markup are escaped', async (t) => {
  const evil: ReviewData = { ...data, path: '<b>p</b>', reviewer: null }
  const page = reviewPage(evil, null).text
  t.notMatch(page, /<script>/)
  t.notMatch(page, /<b>p<\/b>/)
  t.match(section(page, 3), /<td>&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;x&quot;<\/td>/)
  t.match(page, /<input type="hidden" name="path" value="&lt;b&gt;p&lt;\/b&gt;">/)
})

t.test('the header shows the judgment, the counts per kind, the reviewer form and how much is left', async (t) => {
  const page = reviewPage({ ...data, counts: { disagreement: 3, spot_check: 1, unsure: 25 }, moreUnsure: true }, null).text
  t.match(page, /<title>Review spam · judge<\/title>/)
  t.match(page, /<h1>Review <code>spam<\/code><\/h1>/)
  t.match(page, /<li><strong>3<\/strong> disagree with the key<\/li>\n<li><strong>1<\/strong> spot check<\/li>\n<li><strong>25 or more<\/strong> unsure<\/li>/)
  t.match(page, /Showing the first 3 of 29 or more rows/)
  t.match(page, /<input name="reviewer" value="ann" maxlength="64"/)
  t.match(page, /<input name="audit" type="number" min="0" max="1000" value="5">/)
  t.notMatch(page, /verdicts are signed/)
  const one = reviewPage({ ...data, reviewer: null, judgments: ['spam'] }, null).text
  t.match(one, /<li><strong>1<\/strong> disagrees with the key<\/li>/)
  t.notMatch(one, /Showing the first/, 'everything fits on the page')
  t.notMatch(one, /review tone/)
  t.match(one, /No reviewer name set: verdicts are signed <code>server<\/code>/)
})

t.test('the header names the model whose answers are reviewed, and says when they are simulated', async (t) => {
  t.match(reviewPage(data, null).text, /answers of model <code>jev-1\.13\.0<\/code> ·/)
  t.notMatch(reviewPage(data, null).text, /simulated/)
  t.match(reviewPage({ ...data, model: 'simulated-1' }, null).text, /answers of model <code>simulated-1<\/code> <span class="alert">\(simulated answers, not a real model's\)<\/span>/)
  t.notMatch(reviewPage({ ...data, model: null }, null).text, /answers of model/)
})

t.test('an empty queue says plainly that there is nothing to review', async (t) => {
  const page = reviewPage({ ...data, cards: [], counts: { disagreement: 0, spot_check: 0, unsure: 0 } }, null).text
  t.match(page, /<h2>Nothing to review<\/h2>/)
  t.match(page, /every row of the spot check\n\(5 per question\) has a verdict/)
  t.notMatch(page, /<form method="post"/)
})
