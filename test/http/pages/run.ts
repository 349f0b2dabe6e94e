import t from 'tap'
import type { RunPageData } from '../../../src/http/page-data/run.ts'
import { runPage } from '../../../src/http/pages/run.ts'

const data: RunPageData = {
  path: 'sms',
  run: {
    run_id: '20260101T090000Z-abc123',
    judgment: 'spam',
    spec_hash: 'abcdef0123456789',
    git_sha: '',
    model: 'simulated-1',
    rows: 12,
    asked: 5,
    cost: 0.0012,
    status: 'failed: engine answered 500',
    started_at: '2026-01-01T09:00:00.000',
    finished_at: '2026-01-01T09:00:04.500',
    cached: 31,
    requests: 2,
    command: 'run',
    source: 'later.csv',
    source_hash: '0123456789abcdef',
    node: 'spam',
    reported_model: 'simulated-1.1',
    states: 120,
    fingerprints: {},
  },
  spec_changed: true,
  labels: { is_spam: { yes: 3, no: 9 } },
  states: 120,
  rows_pruned: false,
  page: { number: 2, pages: 3, size: 50, first: 51 },
  rows: [
    {
      state_hash: '0123456789abcdef',
      rows: 2,
      state: { message: '<b>hi</b>' },
      answers: { is_spam: { label: 'no', p: 0.8, margin: 0.6, verdict: null } },
    },
    {
      state_hash: '1123456789abcdef',
      rows: 1,
      state: null,
      answers: {
        is_spam: { label: 'yes', p: 0.6, margin: 0.2, verdict: { verdict: 'key_right', text: 'answer key is right' } },
      },
    },
    { state_hash: '2123456789abcdef', rows: 1, state: { message: 'x' }, answers: { is_spam: null } },
  ],
}

t.test("a run page shows the run's settings, its label counts and a page of its rows", async (t) => {
  const page = runPage(data, 'tok').text
  t.match(page, /<title>Run 20260101T090000Z-abc123 · judge<\/title>/)
  t.match(page, /<dt>status<\/dt><dd><span class="alert">failed: engine answered 500<\/span><\/dd>/)
  t.match(page, /<dt>started \(UTC\)<\/dt><dd>2026-01-01 09:00:00<\/dd>/)
  t.match(
    page,
    /<dt>model<\/dt><dd><code>simulated-1<\/code> \(the engine reported <code>simulated-1\.1<\/code>\) <span class="alert">\(simulated answers/,
  )
  t.match(
    page,
    /<dt>ran on<\/dt><dd><code>judge run<\/code> over <code>later\.csv<\/code> <span class="muted">\(content <code>0123456789abcdef<\/code>\)<\/span><\/dd>/,
  )
  t.match(
    runPage({ ...data, run: { ...data.run, command: '', source: '', source_hash: '' } }, null).text,
    /<dt>ran on<\/dt><dd><span class="muted">not recorded/,
    'a run from before provenance says so',
  )
  t.match(
    runPage(
      { ...data, run: { ...data.run, command: 'replay', source: 'kept rows of live', source_hash: '', node: 'other' } },
      null,
    ).text,
    /<dd><code>judge replay<\/code> over <code>kept rows of live<\/code>, for <code>other<\/code><\/dd>/,
  )
  t.match(page, /the spec has changed since; answers are shown for its current wording/)
  t.match(page, /<dt>git commit<\/dt><dd><span class="muted">none \(not in a git repository\)<\/span><\/dd>/)
  t.match(page, /<dt>rows<\/dt><dd>12 <span class="muted">\(120 distinct states\)<\/span><\/dd>/)
  t.match(page, /<dt>cost<\/dt><dd>would cost \$0\.0012 on System One \(simulated: nothing spent\)<\/dd>/)
  t.match(
    runPage({ ...data, run: { ...data.run, model: 'jev-1' } }, null).text,
    /<dt>cost<\/dt><dd>\$0\.0012<\/dd>/,
    "a real model's run cost what it says",
  )
  t.match(page, /<dt>answers<\/dt><dd>31 from the store, 5 asked of the engine in 2 requests<\/dd>/)
  t.match(page, /<tr><td>yes<\/td><td class="num">3<\/td><td class="num">25\.0%<\/td><\/tr>/)
  t.match(page, /51–53 of 120/)
  t.match(page, /<td class="state-cell"><div><span class="muted">message<\/span> &lt;b&gt;hi&lt;\/b&gt;<\/div><\/td>/)
  t.match(
    page,
    /<strong>no<\/strong> 80\.0%<\/span> <a href="\/review\?path=sms&amp;node=spam&amp;question=is_spam&amp;row=0123456789abcdef&amp;token=tok">review<\/a>/,
  )
  t.match(page, /<span class="good">reviewed: answer key is right<\/span>/)
  t.match(page, /values not in the store/)
  t.match(page, /no answer in the store/)
  t.match(
    page,
    /<a rel="prev" href="\/runs\/20260101T090000Z-abc123\?path=sms&amp;token=tok#rows">← Previous<\/a><span>Page 2 of 3<\/span><a rel="next" href="\/runs\/20260101T090000Z-abc123\?path=sms&amp;page=3&amp;token=tok#rows">Next →<\/a>/,
  )
  t.match(page, /href="\/runs\?path=sms&amp;node=spam&amp;token=tok">every run of spam<\/a>/)
})

t.test('a run without recorded rows says why, and what records them', async (t) => {
  const page = runPage({ ...data, states: 0, rows: [], page: { number: 1, pages: 1, size: 50, first: 0 } }, null).text
  t.match(
    page,
    /This run has no rows on record: it judged none, or it was recorded before runs kept the states they judged\./,
  )
  t.notMatch(page, /class="pager"/)
})

t.test('a run whose row list was pruned says so, not that it has no rows', async (t) => {
  const page = runPage(
    { ...data, rows_pruned: true, rows: [], page: { number: 1, pages: 3, size: 50, first: 0 } },
    null,
  ).text
  t.match(page, "This run's list of rows was pruned (<code>judge runs --prune</code>)")
  t.match(page, /its 120 distinct states are counted above but no longer listed/)
  t.notMatch(page, /no rows on record|class="pager"|class="run-rows/)
})

t.test('a run page says per question where p came from, and warns of a question answered from text', async (t) => {
  const sources = { is_spam: { samples: 100, text: 20 }, 'topic<x>': { logprobs: 120 }, urgency: {} }
  const page = runPage({ ...data, run: { ...data.run, sources } }, null).text
  t.match(page, /<h2>Where p comes from<\/h2>/)
  t.match(
    page,
    /<li><code>is_spam<\/code>: p from samples \(100 answers\); text only: p is 1 for every answer \(20 answers\)<\/li>/,
  )
  t.match(page, /<li><code>topic&lt;x&gt;<\/code>: p from log probabilities \(120 answers\)<\/li>/, 'escaped')
  t.notMatch(page, /<code>urgency<\/code>:/, 'a question with none counted is left out')
  t.match(
    page,
    /<p class="alert text-only"><code>is_spam<\/code> answered from text alone: p is 1 for every answer, so routes and thresholds on p or margin mean nothing; set ENGINE_SAMPLES above 1\.<\/p>/,
  )
  t.equal(page.match(/text-only/g)?.length, 1, 'only the question answered from text')
})

t.test('a run recorded before runs counted their sources says so', async (t) => {
  for (const sources of [undefined, {}, { is_spam: {} }] as RunPageData['run']['sources'][]) {
    const page = runPage({ ...data, run: { ...data.run, sources } }, null).text
    t.match(page, /Not counted: the run was recorded before runs counted how their answers' p was obtained/)
    t.notMatch(page, /text-only/)
  }
})
