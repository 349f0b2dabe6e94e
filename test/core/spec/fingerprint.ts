import t from 'tap'
import { shortHash } from '../../../src/core/hash.ts'
import { questionFingerprint } from '../../../src/core/spec/fingerprint.ts'

const base = ['choice', 'What is it about?', ['personal', 'promotion'], ['Chat', null]] as const
const fp = (...args: Parameters<typeof questionFingerprint>) => questionFingerprint(...args)

t.test('a fingerprint is a short hash of type, ask, labels and descriptions', async (t) => {
  t.equal(
    fp(...base),
    shortHash(
      JSON.stringify({
        type: 'choice',
        ask: 'What is it about?',
        labels: ['personal', 'promotion'],
        descriptions: ['Chat', null],
      }),
    ),
  )
  t.equal(
    fp(...base),
    fp('choice', 'What is it about?', ['personal', 'promotion'], ['Chat', null]),
    'the same question, the same fingerprint',
  )
})

t.test('changing anything the engine sees changes the fingerprint', async (t) => {
  const variants = [
    fp('scale', base[1], base[2], base[3]),
    fp(base[0], 'What is this about?', base[2], base[3]),
    fp(base[0], base[1], ['promotion', 'personal'], base[3]),
    fp(base[0], base[1], base[2], ['Chat', 'Offers']),
    fp(base[0], base[1], base[2], [null, null]),
  ]
  t.equal(new Set([fp(...base), ...variants]).size, variants.length + 1)
})

t.test('a description cannot pass for a label: the parts are kept apart', async (t) => {
  t.not(fp('choice', 'Q?', ['a', 'b'], [null, null]), fp('choice', 'Q?', ['a'], ['b', null]))
})
