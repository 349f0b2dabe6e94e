import t from 'tap'
import { reviewBanner } from '../../../src/http/pages/review-banner.ts'
import { reviewPageData } from '../../helpers/review-page-data.ts'

const saved = {
  question: 'is_spam',
  state_hash: '0123456789abcdef',
  verdict: 'key_right' as const,
  labels: ['no'],
  text: 'answer key is right',
  reviewed_at: '2026-03-01T10:00:00.000',
  reviewer: 'ann',
}

t.test('after a verdict: "Saved: <verdict> · Undo", the undo its own form naming the verdict', async (t) => {
  const banner = reviewBanner(
    reviewPageData({ saved, filter: { kind: 'unsure', question: null, row: null } }),
    'tok',
  ).text
  t.match(
    banner,
    /^<div class="banner" role="status">Saved: <strong>answer key is right<\/strong> <span class="muted">\(<code>is_spam<\/code>, row <code>0123456789abcdef<\/code>\)<\/span> · <form method="post" action="\/review\/undo">/,
  )
  for (const [name, value] of [
    ['question', 'is_spam'],
    ['state', '0123456789abcdef'],
    ['reviewed_at', '2026-03-01T10:00:00.000'],
    ['filter_kind', 'unsure'],
    ['token', 'tok'],
    ['reviewer', 'ann'],
    ['audit', '5'],
  ]) {
    t.match(banner, `<input type="hidden" name="${name}" value="${value}">`)
  }
  t.match(
    banner,
    /<button type="submit" class="link" accesskey="u" aria-keyshortcuts="Alt\+U">Undo <kbd aria-hidden="true">u<\/kbd><\/button><\/form><\/div>$/,
  )
})

t.test('after an undo: the row is back, or the verdict before it stands again; nothing without either', async (t) => {
  const back = reviewBanner(
    reviewPageData({ undone: { question: 'is_spam', state_hash: '0123456789abcdef', standing: null } }),
    null,
  ).text
  t.equal(
    back,
    '<div class="banner" role="status">Undone: the verdict on <code>is_spam</code>, row <code>0123456789abcdef</code>, is withdrawn; it is back in the queue.</div>',
  )
  const earlier = reviewBanner(
    reviewPageData({ undone: { question: 'is_spam', state_hash: '0123456789abcdef', standing: saved } }),
    null,
  ).text
  t.match(earlier, /the verdict before it, <strong>answer key is right<\/strong>, stands again\./)
  t.equal(reviewBanner(reviewPageData(), null).text, '')
})
