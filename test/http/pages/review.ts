import t from 'tap'
import { REVIEW_SCRIPT } from '../../../src/http/pages/review-script.ts'
import { KIND_TEXT, reviewPage } from '../../../src/http/pages/review.ts'
import { verdictForms as forms } from '../../helpers/review-forms.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

const data = reviewPageData()

/** The section of a page holding card number `n` (1-based). */
function section(page: string, n: number): string {
  return page.split('<section class="card review-card')[n]
}

t.test(
  "each card shows its kind in words, the question, the state, the model's top labels and the key's label",
  async (t) => {
    const page = reviewPage(data, null).text
    t.match(
      section(page, 1),
      /<span class="kind kind-disagreement">disagrees with the key<\/span> <code>is_spam<\/code>/,
    )
    t.match(section(page, 1), /<p class="ask">Is this message unsolicited advertising or a scam\?<\/p>/)
    t.match(section(page, 1), /<tr><th scope="row">message<\/th><td>See you at lunch<\/td><\/tr>/)
    t.match(
      section(page, 1),
      /<li class="first"><span class="label">yes<\/span> 70\.0%<\/li><li><span class="label">no<\/span> 30\.0%<\/li>/,
    )
    t.match(section(page, 1), /Answer key<\/span> <span class="label">no<\/span>/)
    t.notMatch(section(page, 1), /Label under check/)
    t.match(section(page, 2), /<span class="kind kind-spot_check">spot check<\/span> <code>topic<\/code>/)
    t.match(
      section(page, 2),
      /<th scope="row">message<\/th><td>Your parcel is on its way<\/td><\/tr><tr><th scope="row">sender<\/th><td>post<\/td>/,
      'every state column',
    )
    t.equal(section(page, 2).match(/<li/g)?.length, 3, 'at most three labels')
    t.match(section(page, 2), /Answer key<\/span> <span class="muted">no label<\/span>/)
    t.match(section(page, 2), /Label under check<\/span> <span class="label">service<\/span>/)
    t.match(section(page, 3), /<span class="kind kind-unsure">unsure<\/span>/)
    t.same(KIND_TEXT, {
      disagreement: 'disagrees with the key',
      spot_check: 'spot check',
      split: 'jurors disagree',
      unsure: 'unsure',
    })
  },
)

t.test("each card has one real button per verdict that fits it, with the seed's texts", async (t) => {
  const page = reviewPage(data, null).text
  const texts = (n: number) => forms(section(page, n)).map((f) => f.button)
  t.same(texts(1), ['model is right', 'answer key is right', 'both acceptable', 'needs more context', 'ambiguous'])
  t.same(texts(2), ['label is right', 'it is personal', 'it is promotion', 'needs more context', 'ambiguous'])
  t.same(texts(3), ['label is right', 'it is yes', 'needs more context', 'ambiguous'])
  t.ok(
    forms(page).every((f) => /^type="submit"/.test(f.attributes)),
    'every verdict is a submit button',
  )
  t.notMatch(page, /autofocus/, 'nothing takes the focus, so a narrow screen keeps the header in view')
})

t.test('each verdict form carries the fields POST /review takes, and the label only for labeled', async (t) => {
  const all = forms(reviewPage(data, null).text)
  t.same(all[0].fields, {
    path: 'sms/spam.judge.yaml',
    node: 'spam',
    question: 'is_spam',
    state: 'disa0123456789ab',
    kind: 'disagreement',
    verdict: 'model_right',
    reviewer: 'ann',
    audit: '5',
  })
  const labeled = all.find((f) => f.button === 'it is promotion')!
  t.same(labeled.fields, {
    path: 'sms/spam.judge.yaml',
    node: 'spam',
    question: 'topic',
    state: 'spot0123456789ab',
    kind: 'spot_check',
    verdict: 'labeled',
    label: 'promotion',
    reviewer: 'ann',
    audit: '5',
  })
  t.ok(
    all.every((f) => !('token' in f.fields)),
    'no token without one',
  )
  const anonymous = forms(reviewPage({ ...data, reviewer: null }, null).text)
  t.ok(
    anonymous.every((f) => f.fields.reviewer === ''),
    'no reviewer: the field is empty and the server signs',
  )
})

t.test('a token that came in the query or a form is carried in every form and link', async (t) => {
  const page = reviewPage(data, 'tok&1').text
  t.ok(forms(page).every((f) => f.fields.token === 'tok&1'))
  t.match(page, /<input type="hidden" name="token" value="tok&amp;1"><button/)
  t.match(
    page,
    /<form method="get" action="\/review" class="settings">[\s\S]*<input type="hidden" name="token" value="tok&amp;1">/,
  )
  t.match(page, /href="\/runs\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;token=tok%261">runs and drift<\/a>/)
  t.match(page, /href="\/\?token=tok%261">judge<\/a>/)
  t.match(
    page,
    /href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=tone&amp;reviewer=ann&amp;audit=5&amp;token=tok%261">review tone<\/a>/,
  )
})

t.test('state values, labels and paths holding markup are escaped', async (t) => {
  const evil = { ...data, path: '<b>p</b>', reviewer: null }
  const page = reviewPage(evil, null).text
  t.equal(page.split('<script>').length, 2, "no script but the page's own keys script")
  t.ok(page.includes(`<script>${REVIEW_SCRIPT}</script>`))
  t.notMatch(page, /<b>p<\/b>/)
  t.match(section(page, 3), /<td>&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;x&quot;<\/td>/)
  t.match(page, /<input type="hidden" name="path" value="&lt;b&gt;p&lt;\/b&gt;">/)
})

t.test('the header names the model whose answers are reviewed, and says when they are simulated', async (t) => {
  t.match(reviewPage(data, null).text, /answers of model <code>jev-1\.13\.0<\/code> ·/)
  t.notMatch(reviewPage(data, null).text, /simulated/)
  t.match(
    reviewPage({ ...data, model: 'simulated-1' }, null).text,
    /answers of model <code>simulated-1<\/code> <span class="alert">\(simulated answers, not a real model's\)<\/span>/,
  )
  t.notMatch(reviewPage({ ...data, model: null }, null).text, /answers of model/)
})

t.test("the first card's buttons carry access keys, shown on each button; the other cards have none", async (t) => {
  const page = reviewPage(data, null).text
  const first = forms(section(page, 1))
  t.same(
    first.map((f) => /accesskey="(\w)"/.exec(f.attributes)?.[1]),
    ['m', 'k', 'b', 'n', 'a'],
  )
  t.match(section(page, 1), /model is right <kbd aria-hidden="true">m<\/kbd><\/button>/)
  t.match(first[0].attributes, /aria-keyshortcuts="Alt\+M"/)
  t.ok(forms(section(page, 2)).every((f) => !/accesskey/.test(f.attributes)))
  t.match(section(page, 1), /^ current"/)
  t.match(section(page, 2), /^"/)
})

t.test('each verdict form carries the filter and the page, so the browser comes back to the same view', async (t) => {
  const filtered = reviewPage(
    {
      ...data,
      filter: { kind: 'unsure', question: 'is_spam', row: null },
      page: { number: 2, pages: 3, size: 25, total: 60, first: 26 },
    },
    null,
  ).text
  t.match(forms(filtered)[0].fields, { filter_kind: 'unsure', filter_question: 'is_spam', page: '2' })
  t.notOk('filter_row' in forms(filtered)[0].fields)
  t.notOk('page' in forms(reviewPage(data, null).text)[0].fields, 'page 1 is the default')
})

t.test("the cards sit in the queue's region, which the skip link leads to", async (t) => {
  const page = reviewPage(data, null).text
  t.match(page, /<a class="skip" href="#queue">Skip to the rows<\/a>/)
  t.match(page, /<div id="queue" class="queue">\n\n<section class="card review-card current"/)
})

t.test(
  "the banner of the last verdict heads the queue's region, where a verdict brings the page back, above the next card",
  async (t) => {
    const saved = {
      question: 'is_spam',
      state_hash: 'abcdef0123456789',
      verdict: 'key_right' as const,
      labels: ['no'],
      text: 'answer key is right',
      reviewed_at: '2026-03-01T10:00:00.000',
      reviewer: 'ann',
    }
    const page = reviewPage({ ...data, saved }, null).text
    t.match(
      page,
      /<div id="queue" class="queue">\n<div class="banner" role="status">Saved: <strong>answer key is right<\/strong>[^]*<button type="submit" class="link"[^>]*>Undo [^]*<\/div>\n<section class="card review-card current" aria-labelledby="card-1">/,
    )
    t.equal(page.match(/class="banner"/g)?.length, 1, 'once, not in the header too')
    const undone = { question: 'is_spam', state_hash: 'abcdef0123456789', standing: null }
    t.match(
      reviewPage({ ...data, undone }, null).text,
      /<div id="queue" class="queue">\n<div class="banner" role="status">Undone: /,
    )
  },
)

t.test(
  "progress toward each question's accuracy target is shown under the day's progress, only where a target is set",
  async (t) => {
    const none = { accuracy_target: null, reviews_needed: null }
    const page = reviewPage(
      reviewPageData({
        targets: {
          is_spam: { accuracy_target: 0.05, reviews_needed: { split: 0, unsure: 3, confident: 9 } },
          topic: { accuracy_target: 0.05, reviews_needed: { split: 0, unsure: 0, confident: 0 } },
          urgency: none,
        },
      }),
      null,
    ).text
    t.match(
      page,
      /<ul class="targets" aria-label="accuracy targets"><li><code>is_spam<\/code> to ±5\.0%: about <strong>12<\/strong> more reviews \(3 unsure, 9 confident\)<\/li><li class="reached"><code>topic<\/code> to ±5\.0%: reached<\/li><\/ul>/,
    )
    t.notMatch(reviewPage(data, null).text, /class="targets"/, 'no target, no list')
  },
)

t.test(
  "the guidelines are on every card: the question, each label's description, and beside each button the description of the label it saves",
  async (t) => {
    const page = reviewPage(data, null).text
    const topic = section(page, 2)
    t.match(
      topic,
      /<dl class="guidelines" aria-label="guidelines"><div><dt>personal<\/dt><dd>Chat between people who know each other<\/dd><\/div><div><dt>promotion<\/dt><dd>Offers, prizes, marketing<\/dd><\/div><div><dt>service<\/dt><dd>Account, delivery or service notices<\/dd><\/div><\/dl>/,
    )
    t.match(
      topic,
      /<span class="guide" id="card-2-v1">Account, delivery or service notices<\/span><button type="submit" class="primary" aria-describedby="card-2-v1"[^>]*><span class="num" aria-hidden="true">1<\/span> label is right/,
      'the label under check',
    )
    t.match(
      topic,
      /<span class="guide" id="card-2-v2">Chat between people who know each other<\/span><button [^>]*aria-describedby="card-2-v2"[^>]*><span class="num" aria-hidden="true">2<\/span> it is personal/,
      'a label to pick',
    )
    t.notMatch(
      topic,
      /<span class="guide"[^>]*><\/span><button[^>]*>needs more context/,
      'no guide for a verdict that saves no label',
    )
    t.notMatch(section(page, 1), /class="guidelines"/, 'a question whose labels have no description shows none')
    t.same(
      forms(page)
        .map((f) => f.button)
        .slice(5, 8),
      ['label is right', 'it is personal', 'it is promotion'],
      'the buttons read as before',
    )
    const disagreement = reviewPage(
      {
        ...data,
        questions: data.questions.map((q) =>
          q.name === 'is_spam' ? { ...q, descriptions: ['Unsolicited advertising', 'Anything else'] } : q,
        ),
      },
      null,
    ).text
    t.match(
      section(disagreement, 1),
      /id="card-1-v1">Unsolicited advertising<\/span><button [^>]*><span class="num" aria-hidden="true">1<\/span> model is right/,
      "model is right: the model's label",
    )
    t.match(
      section(disagreement, 1),
      /id="card-1-v2">Anything else<\/span><button [^>]*><span class="num" aria-hidden="true">2<\/span> answer key is right/,
      "answer key is right: the key's",
    )
  },
)

t.test(
  "single keys: each card's first nine buttons are numbered; no button takes the focus by itself, which would scroll the page to it",
  async (t) => {
    const page = reviewPage(data, null).text
    t.match(section(page, 2), /<span class="num" aria-hidden="true">1<\/span> label is right/)
    t.notMatch(page, /autofocus/, 'nothing takes the focus on a page opened')
    const saved = {
      question: 'is_spam',
      state_hash: 'abcdef0123456789',
      verdict: 'key_right' as const,
      labels: ['no'],
      text: 'answer key is right',
      reviewed_at: '2026-03-01T10:00:00.000',
      reviewer: 'ann',
    }
    t.notMatch(
      reviewPage({ ...data, saved }, null).text,
      /autofocus/,
      'nor after a verdict: the script focuses without scrolling',
    )
    t.match(page, /<span class="keys">Keys: <kbd>1<\/kbd>–<kbd>9<\/kbd>/)
    const many = {
      ...data.cards[1],
      verdicts: Array.from({ length: 11 }, (_, i) => ({
        verdict: 'labeled' as const,
        label: `l${i}`,
        text: `it is l${i}`,
      })),
    }
    t.equal(reviewPage({ ...data, cards: [many] }, null).text.match(/class="num"/g)?.length, 9, 'nine keys at most')
  },
)
