import t from 'tap'
import { emptyQueue, KIND_TEXT, pager, reviewHeader } from '../../../src/http/pages/review-header.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

t.test(
  'the header shows the judgment, progress, the rows left per kind as filter links, and the form of filter and reviewer',
  async (t) => {
    const header = reviewHeader(
      reviewPageData({
        left: { disagreement: 3, spot_check: 1, split: 0, unsure: 25 },
        listed_by_question: {
          is_spam: { disagreement: 3, spot_check: 0, split: 0, unsure: 20 },
          topic: { disagreement: 0, spot_check: 1, split: 0, unsure: 5 },
          urgency: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
        },
        progress: { reviewer: 'ann', day: '2026-03-01', reviewed: 7, all_time: 12, held: 25, left: 29 },
      }),
      null,
    ).text
    t.match(header, /<h1>Review <code>spam<\/code><\/h1>/)
    t.match(
      header,
      /<p class="progress"><strong>7<\/strong> reviewed today by <strong>ann<\/strong> · <strong>29<\/strong> left in the queue<\/p>/,
    )
    t.match(
      header,
      /<li class="current"><a href="\/review\?path=sms%2Fspam\.judge\.yaml&amp;node=spam&amp;reviewer=ann&amp;audit=5" aria-current="true">all 29<\/a><\/li>/,
    )
    t.match(
      header,
      /<li><a href="\/review\?[^"]*&amp;kind=disagreement">3 disagree with the key<\/a><\/li><li><a [^>]*kind=spot_check">1 spot check<\/a><\/li><li><a [^>]*kind=unsure">25 unsure<\/a><\/li>/,
    )
    t.match(
      header,
      /<select name="kind"><option value="" selected>every kind<\/option><option value="disagreement">disagreements with the key<\/option>/,
    )
    t.match(
      header,
      /<select name="question"><option value="" selected>every question<\/option><option value="is_spam">is_spam<\/option>/,
    )
    t.match(header, /<input name="reviewer" value="ann" maxlength="64"/)
    t.match(header, /<input name="audit" type="number" min="0" max="1000" value="5">/)
    t.match(header, /Rows 1–3 of 3\. A verdict takes its row off the queue\./)
    t.match(header, /href="\/accuracy\?path=sms%2Fspam\.judge\.yaml&amp;node=spam">accuracy<\/a>/)
    t.notMatch(header, /verdicts are signed/)
  },
)

t.test(
  "a filter's count is the rows it lists: spot checks to come are said apart, and the pages are the listed rows'",
  async (t) => {
    // 186 spot checks left in all, of which the allocation offers 11 now: the chip leads to 11 rows, on one page.
    const data = reviewPageData({
      filter: { kind: 'spot_check', question: null, row: null },
      left: { disagreement: 1, spot_check: 186, split: 0, unsure: 40 },
      left_by_question: {
        is_spam: { disagreement: 1, spot_check: 100, split: 0, unsure: 40 },
        topic: { disagreement: 0, spot_check: 86, split: 0, unsure: 0 },
        urgency: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
      },
      listed_by_question: {
        is_spam: { disagreement: 1, spot_check: 6, split: 0, unsure: 40 },
        topic: { disagreement: 0, spot_check: 5, split: 0, unsure: 0 },
        urgency: { disagreement: 0, spot_check: 0, split: 0, unsure: 0 },
      },
      spot_checks_later: { is_spam: 94, topic: 81, urgency: 0 },
      page: { number: 1, pages: 1, size: 25, total: 11, first: 1 },
    })
    const header = reviewHeader(data, null).text
    t.match(header, /aria-current="true">11 spot checks<\/a>/, 'the chip counts the spot checks the filter lists')
    t.match(header, />all 52<\/a>/)
    t.notMatch(header, /186/, 'not the spot checks to come')
    t.match(
      header,
      '<p class="muted to-come">175 more spot checks come later: the review allocation offers them between unsure rows \
as verdicts come in.</p>',
    )
    t.equal(pager(data, null).text, '', 'one page of them, no empty pages after it')
    const topic = reviewHeader({ ...data, filter: { kind: null, question: 'topic', row: null } }, null).text
    t.match(topic, />5 spot checks<\/a>/)
    t.match(topic, '81 more spot checks come later')
    const one = reviewHeader({ ...data, spot_checks_later: { is_spam: 1, topic: 0, urgency: 0 } }, null).text
    t.match(one, '1 more spot check comes later')
    const unsure = reviewHeader({ ...data, filter: { kind: 'unsure', question: null, row: null } }, null).text
    t.notMatch(unsure, /to-come/, 'not under another kind')
    t.notMatch(reviewHeader(reviewPageData(), null).text, /to-come/, 'nothing when none are to come')
  },
)

t.test(
  'the single keys are shown on the page, with more about them a key away, and the access keys without scripts',
  async (t) => {
    const header = reviewHeader(reviewPageData(), null).text
    t.match(
      header,
      '<span class="keys">Keys: <kbd>1</kbd>–<kbd>9</kbd> the numbered buttons of the current card · <kbd>u</kbd> \
undo · <kbd>s</kbd> skip to the next card · <kbd>?</kbd> more.</span>',
    )
    t.match(header, /<span id="keys-help" class="keys-help" hidden>[^<]*Access keys work too: hold Alt/)
    t.match(header, /<noscript><span class="keys">With scripts off, single keys do nothing: hold Alt/)
  },
)

t.test("a filter marks its kind, selects its controls, and counts the question's rows", async (t) => {
  const header = reviewHeader(reviewPageData({ filter: { kind: 'unsure', question: 'is_spam', row: null } }), null).text
  t.match(
    header,
    /<li class="current"><a [^>]*kind=unsure&amp;question=is_spam" aria-current="true">1 unsure<\/a><\/li>/,
  )
  t.match(header, /<li><a href="[^"]*&amp;question=is_spam">all 2<\/a><\/li>/, 'the question kept, the kind dropped')
  t.match(header, /<option value="unsure" selected>unsure answers<\/option>/)
  t.match(header, /<option value="is_spam" selected>is_spam<\/option>/)
  const row = reviewHeader(
    reviewPageData({ filter: { kind: null, question: null, row: '0123456789abcdef' } }),
    null,
  ).text
  t.match(row, /<input type="hidden" name="row" value="0123456789abcdef">/)
  t.match(row, /Rows 1–3 of 3 of row <code>0123456789abcdef<\/code> · <a href="[^"]*">every row<\/a>/)
})

t.test('without a reviewer name the header says what verdicts are signed with', async (t) => {
  const header = reviewHeader(
    reviewPageData({
      reviewer: null,
      progress: { reviewer: 'server', day: 'd', reviewed: 0, all_time: 0, held: 0, left: 3 },
    }),
    null,
  ).text
  t.match(header, /No reviewer name set: verdicts are signed <code>server<\/code>\./)
})

t.test('the pager links the previous and next pages of the same filter, and is absent on a single page', async (t) => {
  const data = reviewPageData({
    filter: { kind: 'spot_check', question: null, row: null },
    page: { number: 2, pages: 3, size: 25, total: 60, first: 26 },
  })
  const nav = pager(data, 'tok').text
  t.match(
    nav,
    /<a rel="prev" href="\/review\?[^"]*kind=spot_check&amp;token=tok">← Previous<\/a><span>Page 2 of 3<\/span><a rel="next" href="\/review\?[^"]*kind=spot_check&amp;page=3&amp;token=tok">Next →<\/a>/,
  )
  t.notMatch(nav, /page=1/, 'page 1 is the default')
  t.match(pager({ ...data, page: { ...data.page, number: 3 } }, null).text, /<span class="muted">Next →<\/span>/)
  t.equal(pager(reviewPageData(), null).text, '')
})

t.test('an empty queue says why, accurately for the judgment, and what to do next', async (t) => {
  const empty = emptyQueue(reviewPageData({ cards: [] }), null).text
  t.match(empty, /<h2>Nothing to review<\/h2>/)
  t.match(
    empty,
    /every row that disagrees with the answer key has a verdict; every one of the 5 spot checks per question has a verdict; every answer with a margin below 0\.2 has a verdict/,
  )
  t.match(empty, /<code>judge run<\/code> adds answers/)
  const bare = emptyQueue(reviewPageData({ cards: [], has_key: false, audit: 0, unsure_below: 0 }), null).text
  t.match(
    bare,
    /the judgment has no answer key, so no row can disagree with one; spot checks are set to 0 per question; no answer counts as unsure \(the margin threshold is 0\)/,
  )
  t.notMatch(`${empty}${bare}`, /unsure_below/, 'no spec key named')
  const filtered = emptyQueue(
    reviewPageData({ cards: [], filter: { kind: 'unsure', question: 'topic', row: null } }),
    null,
  ).text
  t.match(
    filtered,
    /No unsure answers of topic wait for a verdict\. <a href="[^"]*">Show every kind and question<\/a> \(3 left\)\./,
  )
  const row = emptyQueue(
    reviewPageData({ cards: [], filter: { kind: null, question: 'is_spam', row: '0123456789abcdef' } }),
    null,
  ).text
  t.match(
    row,
    /Row <code>0123456789abcdef<\/code> is not offered on <code>is_spam<\/code>: it has a verdict already, or the queue does not pick it/,
  )
  const none = reviewPageData({
    cards: [],
    model_answers: 0,
    other_models: [
      { model: 'simulated-1', answers: 15513, setting: 'ENGINE=simulated' },
      { model: 'jev-1.12.0', answers: 4, setting: 'ENGINE_MODEL=jev-1.12.0' },
    ],
  })
  const noAnswers = emptyQueue(none, null).text
  t.match(
    noAnswers,
    /the queue reads the answers of model <code>jev-1\.13\.0<\/code>, and the store holds none to the questions of <code>spam<\/code> as worded now/,
  )
  t.notMatch(noAnswers, /spot checks per question has a verdict/, 'not the rules of a queue that has answers')
  t.match(
    noAnswers,
    /<li>15,513 answers of <code>simulated-1<\/code>: start the server with <code>ENGINE=simulated<\/code> to review them<\/li><li>4 answers of <code>jev-1\.12\.0<\/code>: start the server with <code>ENGINE_MODEL=jev-1\.12\.0<\/code>/,
  )
  t.match(noAnswers, /<code>judge run sms\/spam\.judge\.yaml<\/code> asks model <code>jev-1\.13\.0<\/code> for answers/)
  t.match(
    emptyQueue({ ...none, other_models: [], model: null }, null).text,
    /reads the answers of the engine's default model, and the store holds none[^]*from any model yet/,
  )
  t.match(emptyQueue({ ...none, other_models: none.other_models.slice(0, 1) }, null).text, /from another model:/)
  t.match(
    emptyQueue({ ...none, filter: { kind: null, question: 'is_spam', row: '0123456789abcdef' } }, null).text,
    /the queue does not pick it \(the store holds no answers of model jev-1\.13\.0 to its questions\)/,
  )
  t.match(
    emptyQueue({ ...none, model: null, filter: { kind: null, question: 'is_spam', row: '0123456789abcdef' } }, null)
      .text,
    /no answers of the model the queue reads/,
  )
  t.same(KIND_TEXT, {
    disagreement: 'disagrees with the key',
    spot_check: 'spot check',
    split: 'jurors disagree',
    unsure: 'unsure',
  })
})
