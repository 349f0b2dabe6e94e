import t from 'tap'
import type { LikeDriftEntry } from '../../../src/core/reports/like-runs.ts'
import { likeRunsSection } from '../../../src/http/pages/like-runs.ts'

function entry(run_id: string, over: Partial<LikeDriftEntry> = {}): LikeDriftEntry {
  return {
    run_id,
    rows: 10,
    shares: { yes: 0.5, no: 0.5 },
    change: null,
    alert: false,
    p_value: null,
    significant: false,
    command: 'run',
    source: 'messages.csv',
    status: 'complete',
    reported_model: 'jev-1',
    baseline: null,
    model_change: null,
    model_rows: null,
    model_flips: null,
    data_change: null,
    model_p_value: null,
    other_data: null,
    ...over,
  }
}

t.test(
  "a table per series: each run, its status and model, what it was compared with, and each question's change",
  async (t) => {
    const page = likeRunsSection({
      is_spam: [
        entry('r1'),
        entry('l1', { source: '<later>.csv' }),
        entry('r2', { status: 'failed: interrupted', baseline: 'r1', change: 0.4 }),
        entry('r3', {
          baseline: 'r1',
          change: 0.2,
          alert: true,
          p_value: 0.001,
          significant: true,
          reported_model: 'jev-2',
          model_change: 0.15,
          model_rows: 40,
          model_flips: 0.2,
          data_change: 0.05,
        }),
        entry('r4', { baseline: 'r3', change: 0.01, model_change: 0, data_change: 0.01 }),
      ],
      topic: [
        entry('r3', {
          baseline: 'r1',
          change: 0.3,
          alert: true,
          p_value: 0.002,
          significant: true,
          reported_model: 'jev-2',
        }),
      ],
    }).text
    t.match(page, /<h4>Like runs<\/h4>/)
    t.match(
      page,
      /<h5><code>run<\/code> of <code>messages\.csv<\/code><\/h5><div class="table-wrap"><table><thead><tr><th>run<\/th><th>status<\/th><th>reported model<\/th><th>compared with \(same data\)<\/th>\n<th class="num"><code>is_spam<\/code> change<\/th><th class="num"><code>topic<\/code> change<\/th>/,
    )
    t.match(page, /<h5><code>run<\/code> of <code>&lt;later&gt;\.csv<\/code><\/h5>/, 'every value escaped')
    t.match(
      page,
      /<td><code>r1<\/code><\/td><td>complete<\/td>\n<td><code>jev-1<\/code><\/td><td><span class="muted">first<\/span><\/td>\n<td class="num muted">-<\/td><td class="num muted">-<\/td>/,
    )
    t.match(
      page,
      /<td><code>r2<\/code><\/td><td><span class="alert">failed<\/span><\/td>\n<td><code>jev-1<\/code><\/td><td><code>r1<\/code><\/td>\n<td class="num">0\.400<br><span class="muted">model part unmeasured<\/span><\/td>/,
    )
    t.match(
      page,
      /<td class="num"><span class="alert">0\.200 drift<\/span><br><span class="muted">model 0\.150 on 40 rows, data 0\.050<\/span><\/td><td class="num"><span class="alert">0\.300 drift<\/span><br><span class="muted">model part unmeasured<\/span><\/td>/,
    )
    t.match(page, /<td><code>r4<\/code><\/td>.*\n.*\n<td class="num">0\.010<\/td><td class="num muted">-<\/td><\/tr>/)
  },
)

t.test('under each change, the change on other data against the source it was compared with', async (t) => {
  const other = { baseline: 'r1', source: 'messages.csv', change: 0.2, alert: true, p_value: 0.0001, significant: true }
  const page = likeRunsSection({
    is_spam: [
      entry('r1'),
      entry('l1', { source: 'later.csv', other_data: other }),
      entry('l2', {
        source: 'later.csv',
        baseline: 'l1',
        change: 0,
        model_change: 0,
        other_data: { ...other, significant: false },
      }),
      entry('l3', {
        source: 'later.csv',
        baseline: 'l2',
        change: 0,
        model_change: 0,
        other_data: { ...other, change: 0.05, alert: false, significant: false },
      }),
    ],
  }).text
  t.match(
    page,
    /<td><code>l1<\/code><\/td>[^]*?<td class="num"><span class="muted">-<\/span><br><span class="other-data">other data <span class="alert">0\.200 drift<\/span><\/span><br><span class="muted">vs <code>messages\.csv<\/code><\/span><\/td>/,
    'a first run of its source: no change on the same data, drift on other data',
  )
  t.match(
    page,
    /<td class="num">0\.000<br><span class="other-data">other data 0\.200 <span class="muted">within noise<\/span><\/span><br><span class="muted">vs/,
  )
  t.match(
    page,
    /<td class="num">0\.000<br><span class="other-data">other data 0\.050<\/span><br><span class="muted">vs/,
  )
})

t.test('no runs: no section', async (t) => {
  t.equal(likeRunsSection({ is_spam: [], topic: [] }).text, '')
  t.match(
    likeRunsSection({ q: [entry('old', { command: '', source: '' })] }).text,
    /<h5>runs recorded before commands and sources were<\/h5>/,
  )
})

t.test("the model part carries its paired test's p value when it was measured", async (t) => {
  const page = likeRunsSection({
    is_spam: [
      entry('r1'),
      entry('r2', {
        baseline: 'r1',
        change: 0.2,
        alert: true,
        significant: true,
        model_change: 0.15,
        model_rows: 40,
        model_flips: 0.15,
        data_change: 0.05,
        model_p_value: 0.0004,
      }),
    ],
  }).text
  t.match(page, /model 0\.150 on 40 rows \(p &lt; 0\.001\), data 0\.050/)
})
