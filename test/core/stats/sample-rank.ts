import t from 'tap'
import { sha256 } from '../../../src/core/hash.ts'
import { sampleRank } from '../../../src/core/stats/sample-rank.ts'

t.test('the rank is the first 48 bits of SHA-256 of the three parts joined by NUL', async (t) => {
  const expected = Number.parseInt(sha256('spam\0is_spam\0abc123').slice(0, 12), 16)
  t.equal(sampleRank('spam', 'is_spam', 'abc123'), expected)
  // Digests whose first bytes run over the whole range 0 to 255, of ASCII and other text alike.
  for (let i = 0; i < 500; i++) {
    const state = i % 2 === 0 ? `state-${i}` : `état ✓ ${i}`
    const hex = Number.parseInt(sha256(`spam\0is_spam\0${state}`).slice(0, 12), 16)
    if (sampleRank('spam', 'is_spam', state) !== hex) t.fail(`the rank of ${state} is not its first 12 hex digits`)
  }
})

t.test('the rank is a safe, non-negative integer below 2^48', async (t) => {
  for (let i = 0; i < 200; i++) {
    const rank = sampleRank('spam', 'is_spam', `state-${i}`)
    t.ok(Number.isSafeInteger(rank) && rank >= 0 && rank < 2 ** 48, `state-${i}`)
  }
})

t.test('the same inputs always give the same rank', async (t) => {
  t.equal(sampleRank('spam', 'topic', 'state-1'), sampleRank('spam', 'topic', 'state-1'))
})

t.test('each of judgment, question and state changes the rank', async (t) => {
  const base = sampleRank('spam', 'topic', 'state-1')
  t.not(sampleRank('ham', 'topic', 'state-1'), base)
  t.not(sampleRank('spam', 'urgency', 'state-1'), base)
  t.not(sampleRank('spam', 'topic', 'state-2'), base)
})

t.test('the separator keeps parts from running into each other', async (t) => {
  t.not(sampleRank('ab', 'c', 's'), sampleRank('a', 'bc', 's'))
})

t.test('a key may have any number of parts: four parts are another draw than three', async (t) => {
  t.equal(sampleRank('spam', 'double', 'is_spam', 'abc123'), sampleRank('spam\0double', 'is_spam', 'abc123'))
  t.not(sampleRank('spam', 'double', 'is_spam', 'abc123'), sampleRank('spam', 'is_spam', 'abc123'))
})
