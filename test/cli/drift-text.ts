import t from 'tap'
import {
  comparedOnOtherData,
  comparedWith,
  likeDriftText,
  partsText,
  questionLine,
  seriesName,
} from '../../src/cli/drift-text.ts'
import type { LikeDriftEntry } from '../../src/core/reports/like-runs.ts'

function entry(over: Partial<LikeDriftEntry> = {}): LikeDriftEntry {
  return {
    run_id: 'r2',
    rows: 10,
    shares: { yes: 0.3, no: 0.7 },
    change: 0.15,
    alert: true,
    p_value: 0.001,
    significant: true,
    command: 'run',
    source: 'later.csv',
    status: 'complete',
    reported_model: 'jev-2',
    baseline: 'r1',
    model_change: 0.1,
    model_rows: 40,
    model_flips: 0.125,
    data_change: 0.05,
    model_p_value: 0.002,
    other_data: null,
    ...over,
  }
}

t.test('a series is named by its command and source', async (t) => {
  t.equal(seriesName('run', 'later.csv'), '`run` of later.csv')
  t.equal(seriesName('', ''), 'runs recorded before commands and sources were')
})

t.test("a run says what it was compared with, or that it is its series' first", async (t) => {
  t.equal(
    comparedWith(entry()),
    'same data: compared with run r1, the previous complete `run` of later.csv; ' +
      'a change here is the model (or a rewritten file) moving',
  )
  t.equal(
    comparedWith(entry({ baseline: null, change: null })),
    'same data: first complete `run` of later.csv, nothing to compare with',
  )
  t.match(
    comparedWith(entry({ status: 'failed: interrupted' })),
    /\(this run failed: shown, never compared against, no alert\); a change here/,
  )
})

const OTHER = {
  baseline: 'r0',
  source: 'messages.csv',
  change: 0.2,
  alert: true,
  p_value: 0.0001,
  significant: true,
}

t.test('a run on other data says which run of which source it was compared with: the data moved', async (t) => {
  t.equal(comparedOnOtherData(entry()), '', 'no earlier run on other data: no line')
  t.equal(
    comparedOnOtherData(entry({ other_data: OTHER })),
    'other data: compared with run r0, the previous complete `run` of messages.csv; a change here is the data moving',
  )
  t.equal(
    questionLine('is_spam', entry({ baseline: null, change: null, other_data: OTHER })),
    '  is_spam: no 70.0%  yes 30.0%; other data: change 0.200 (drift alert, above 0.10, p < 0.001)',
    'a first run of its source still has its change on other data',
  )
  t.equal(
    questionLine(
      'is_spam',
      entry({ model_change: 0, alert: false, significant: false, other_data: { ...OTHER, significant: false } }),
    ),
    '  is_spam: no 70.0%  yes 30.0%; same data: change 0.150; other data: change 0.200 (above 0.10 but within noise, p < 0.001)',
  )
})

t.test('a question line gives the mix, the change with its alert, and its parts when the model changed', async (t) => {
  t.equal(
    questionLine('is_spam', entry()),
    '  is_spam: no 70.0%  yes 30.0%; same data: change 0.150 (drift alert, above 0.10, p = 0.001); model part 0.100 on 40 rows (12.5% flipped, p = 0.002), data part 0.050',
  )
  t.equal(
    questionLine('is_spam', entry({ significant: false, p_value: 0.2, model_change: 0, data_change: 0.15 })),
    '  is_spam: no 70.0%  yes 30.0%; same data: change 0.150 (above 0.10 but within noise, p = 0.200)',
    'an alert that is noise says so',
  )
  t.equal(
    questionLine('is_spam', entry({ p_value: 0.0001, model_change: 0, data_change: 0.15 })),
    '  is_spam: no 70.0%  yes 30.0%; same data: change 0.150 (drift alert, above 0.10, p < 0.001)',
  )
  t.equal(
    questionLine('is_spam', entry({ alert: false, significant: false, model_change: 0, data_change: 0.15 })),
    '  is_spam: no 70.0%  yes 30.0%; same data: change 0.150',
  )
  t.equal(questionLine('q', entry({ change: null, baseline: null })), '  q: no 70.0%  yes 30.0%')
  t.equal(partsText(entry({ model_change: null, model_rows: null })), "; the model's part unmeasured")
  t.equal(
    partsText(entry({ data_change: null, model_p_value: null })),
    '; model part 0.100 on 40 rows (12.5% flipped), data part unmeasured',
  )
})

t.test('the drift text has a table per series and question, and says when there are no runs', async (t) => {
  const text = likeDriftText('spam', {
    is_spam: [
      entry({
        run_id: 'r1',
        baseline: null,
        change: null,
        alert: false,
        model_change: null,
        model_rows: null,
        data_change: null,
      }),
      entry(),
      entry({ run_id: 'r3', other_data: OTHER }),
      entry({ run_id: 'r4', other_data: { ...OTHER, significant: false } }),
      entry({ run_id: 'r5', other_data: { ...OTHER, alert: false, significant: false, change: 0.05 } }),
    ],
    topic: [],
  })
  t.match(
    text,
    /^spam: `run` of later\.csv\n  is_spam\n    run\s+status\s+rows\s+model\s+same data vs\s+change\s+model part\s+data part\s+other data vs\s+change\s+label mix\n/,
  )
  t.match(text, /\n    r1\s+complete\s+10\s+jev-2\s+-\s+-\s+-\s+-\s+-\s+-\s+no 70\.0%/)
  t.match(text, /\n    r2\s+complete\s+10\s+jev-2\s+r1\s+0\.150\s+ALERT\s+0\.100\s+0\.050\s+-\s+-\s+no 70\.0%/)
  t.match(text, /\n    r3\s+.*0\.050\s+r0 \(messages\.csv\)\s+0\.200\s+ALERT\s+no 70\.0%/, 'the data moved')
  t.match(text, /\n    r4\s+.*r0 \(messages\.csv\)\s+0\.200\s+noise\s+no 70\.0%/)
  t.match(text, /\n    r5\s+.*r0 \(messages\.csv\)\s+0\.050\s+no 70\.0%/)
  t.notMatch(text, /topic/, 'a question without runs in the series is left out')
  t.equal(likeDriftText('spam', { is_spam: [] }), 'spam: no runs yet\n')
})
