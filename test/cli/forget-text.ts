import t from 'tap'
import type { ForgetReport } from '../../src/app/forget.ts'
import { expiredText, forgetText } from '../../src/cli/forget-text.ts'

const row = { state_hash: '63439f81dd1d698e', values: true, kept_rows: 1, review_lines: 3 }
const report: ForgetReport = {
  dry_run: true,
  states: [row],
  reviews_files: [{ file: 'spam.reviews.csv', lines: 3 }],
  log_cleared: null,
  removed: { values: 1, kept_rows: 1, review_lines: 3 },
  key_files: [],
}

t.test('a dry run lists each row with what each place holds, says what would go and that nothing went', async (t) => {
  t.equal(
    forgetText(report),
    [
      'state             values  kept rows  reviews-file lines',
      '63439f81dd1d698e  yes     1          3',
      'would forget 1 row: the values of 1 row in the store, 1 kept row and the state of 3 reviews-file lines (spam.reviews.csv); nothing was removed (give --yes to forget)',
      'Answers, shadow pairs, runs, label counts and verdicts would stay, by hash, with their figures: a forgotten row judged again is a cache hit, and its values are stored again only when an answer is asked for it, a request keeps it (log) or a verdict is given on it.',
      '',
    ].join('\n'),
  )
})

t.test('done, it says what went; a key holding the row and a log left full are said too', async (t) => {
  const done = forgetText({
    ...report,
    dry_run: false,
    log_cleared: false,
    key_files: ['spam.key.csv'],
    states: [{ ...row, values: false, kept_rows: 0 }],
    removed: { values: 0, kept_rows: 0, review_lines: 3 },
  })
  t.match(done, /^forgot 1 row: the state of 3 reviews-file lines \(spam\.reviews\.csv\)$/m)
  t.match(done, /^Answers, shadow pairs, runs, label counts and verdicts stay, by hash/m)
  t.match(
    done,
    /^The answer key spam\.key\.csv holds one of these rows: judge never edits a key; remove the row from it yourself\.$/m,
  )
  t.match(
    done,
    /^warning: another process was reading the store, so its write-ahead log may still hold old copies; run the same forget again to empty it$/m,
  )
  t.equal(forgetText({ ...report, states: [] }), 'judge keeps nothing of these rows: nothing to forget\n')
  t.match(forgetText({ ...report, states: [], key_files: ['k.csv'] }), /nothing to forget\nThe answer key k\.csv holds/)
  t.match(
    forgetText({ ...report, removed: { values: 1, kept_rows: 0, review_lines: 0 } }),
    /would forget 1 row: the values of 1 row in the store; nothing/,
  )
})

t.test('expired copies are listed per judgment that sets retain_days', async (t) => {
  const judgment = { judgment: 'spam', retain_days: 30, before: '2026-03-01T12:00:00.000', ...report }
  t.equal(
    expiredText({ dry_run: false, judgments: [] }, 'sms'),
    'no judgment of sms sets retain_days: nothing expires\n',
  )
  t.match(
    expiredText({ dry_run: true, judgments: [judgment] }, 'sms'),
    /^spam \(retain_days 30: what is older than 2026-03-01T12:00:00\.000\):\nstate .*\n63439f81dd1d698e .*\nwould forget the expired copies of 1 row: the values of 1 row in the store, 1 kept row and the state of 3 reviews-file lines \(spam\.reviews\.csv\); nothing was removed/,
  )
  t.equal(
    expiredText({ dry_run: false, judgments: [{ ...judgment, states: [], log_cleared: false }] }, 'sms'),
    'spam (retain_days 30: what is older than 2026-03-01T12:00:00.000): nothing has expired\nwarning: another process was reading the store, so its write-ahead log may still hold old copies; run the same forget again to empty it\n',
  )
})
