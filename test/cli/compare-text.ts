import t from 'tap'
import type { CompareReport } from '../../src/app/compare.ts'
import { changeLines, compareText, gateText, questionLines } from '../../src/cli/compare-text.ts'
import type { QuestionComparison } from '../../src/core/compare/compare.ts'

const report: CompareReport = {
  live: { judgment: 'spam', spec_hash: 'aaaa', model: 'jev' },
  candidate: { judgment: 'spam-v2', spec_hash: 'bbbb', model: 'jev' },
  source: 'kept rows of spam',
  kept: 0,
  compared: 0,
  margin: 0.01,
  cost_per_1000: { live: 0.05, candidate: null },
  totals: null,
  run: null,
  questions: {},
}

t.test('the report names both specs with their cost per 1,000 rows, and says when nothing is kept', async (t) => {
  const text = compareText(report)
  t.match(text, /^candidate spam-v2 against live spam on kept rows of spam: 0 kept rows, 0 states compared\n/)
  t.match(text, /live {7}spec aaaa, model jev, \$0\.05 per 1,000 rows/)
  t.match(text, /candidate {2}spec bbbb, model jev, not estimable per 1,000 rows/)
  t.match(text, /no rows are kept for spam/)
})

t.test(
  'a question: rows and flips, the difference by its method, and the verdict with the reviews it needs',
  async (t) => {
    t.same(
      questionLines('q', {
        changed: true,
        changes: ['question'],
        rows: 0,
        discordant: null,
        discordant_rows: 0,
        flips: [],
        reviewed: 0,
        next: null,
        paired: null,
        difference: null,
        interval: null,
        p_value: null,
        rows_difference: null,
        method: null,
        verdict: 'not enough evidence',
        reviews_needed: 0,
      }),
      ['q: no rows compared'],
    )
    const lines = questionLines('q', {
      changed: true,
      changes: ['question'],
      rows: 200,
      discordant: 0.05,
      discordant_rows: 10,
      flips: [{ live: 'no', candidate: 'yes', rows: 10 }],
      reviewed: 0,
      next: 'abc',
      paired: { rows: 7, difference: 0.02, interval: [-0.1, 0.2], p_value: 0.0004 },
      difference: 0.02,
      interval: [-0.1, 0.2],
      p_value: 0.0004,
      rows_difference: null,
      method: 'paired rows',
      verdict: 'not enough evidence',
      reviews_needed: 10,
    })
    t.same(lines, [
      'q: 200 rows compared, 5.0% labelled differently (10): no -> yes 10',
      '  accuracy difference (candidate - live) +2.0 points, 95% interval -10.0 points to +20.0 points, p < 0.001 (paired rows, 7 rows with a known label)',
      '  verdict: not enough evidence; 10 more discordant rows to review (next abc)',
    ])
  },
)

t.test(
  'every discordant row known: the exact difference on the rows is said beside the interval for traffic',
  async (t) => {
    const lines = questionLines('q', {
      changed: true,
      changes: ['question'],
      rows: 10,
      discordant: 0.2,
      discordant_rows: 2,
      flips: [{ live: 'no', candidate: 'yes', rows: 2 }],
      reviewed: 2,
      next: null,
      paired: null,
      difference: 0.2,
      interval: [-0.6, 0.7],
      p_value: 0.5,
      rows_difference: 0.2,
      method: 'discordant rows',
      verdict: 'no difference shown',
      reviews_needed: 0,
    })
    t.equal(
      lines[2],
      '  on these 10 rows exactly +20.0 points (every row they differ on has a known label); the interval is for the traffic they sample',
    )
    const same = questionLines('q', {
      changed: true,
      changes: ['question'],
      rows: 10,
      discordant: 0,
      discordant_rows: 0,
      flips: [],
      reviewed: 0,
      next: null,
      paired: null,
      difference: 0,
      interval: [-0.3, 0.3],
      p_value: 1,
      rows_difference: 0,
      method: 'discordant rows',
      verdict: 'no difference shown',
      reviews_needed: 0,
    })
    t.match(same[2], /exactly \+0\.0 points \(none differ\)/)
  },
)

const asked = (changes: QuestionComparison['changes']): QuestionComparison => ({
  changed: changes.length > 0,
  changes,
  rows: 10,
  discordant: 0,
  discordant_rows: 0,
  flips: [],
  reviewed: 0,
  next: null,
  paired: null,
  difference: 0,
  interval: [0, 0],
  p_value: null,
  rows_difference: 0,
  method: null,
  verdict: changes.length > 0 ? 'no difference shown' : 'unchanged',
  reviews_needed: 0,
})

t.test('the report names the changed questions with what changed, and the unchanged ones', async (t) => {
  t.same(changeLines({ a: asked(['question']), b: asked([]), c: asked(['model', 'store']) }), [
    'changed: a (wording or labels), c (model, store)',
    'unchanged: b (same wording, labels, model, state and store: the live answers by construction)',
  ])
  t.same(changeLines({ a: asked(['state']) }), ['changed: a (state)', 'unchanged: none'])
  t.match(changeLines({ a: asked([]) }), ['changed: none', /^unchanged: a \(/])
  t.same(changeLines({}), [])
  t.same(questionLines('b', asked([])), [
    'b: unchanged, 10 rows compared: the same answers as live, a difference of exactly 0',
  ])
  t.match(
    compareText({ ...report, questions: { a: asked(['question']), b: asked([]) } }),
    /\nchanged: a .*\nunchanged: b/,
  )
})

t.test('the gate says what it judged: the changed questions, or nothing when none changed', async (t) => {
  const gate = { require: 'not-worse', scope: 'traffic', margin: 0.01 } as const
  t.equal(
    gateText(gate, [], []),
    '\ngate: met: no question changed, so every answer is the live one; nothing for --require to judge\n',
  )
  t.equal(
    gateText(gate, ['a', 'c'], []),
    '\ngate: every changed question (a, c) is not-worse (margin 0.01) with 95% confidence\n',
  )
  t.equal(
    gateText({ ...gate, scope: 'rows' }, ['a'], []),
    '\ngate: every changed question (a) is not-worse (margin 0.01) on the compared rows\n',
  )
  t.equal(gateText(gate, ['a'], ['a: why']), '\ngate: not met (not-worse, margin 0.01, about traffic):\n  a: why\n')
  t.equal(
    gateText({ ...gate, scope: 'rows' }, ['a'], ['a: why']),
    '\ngate: not met (not-worse, margin 0.01, on the compared rows):\n  a: why\n',
  )
})
