import t from 'tap'
import { cleanNote, NOTE_MAX } from '../../../src/core/review/note.ts'
import { UsageError } from '../../../src/errors.ts'

t.test('a note is one line of plain text: control and hiding characters become spaces, ends trimmed', async (t) => {
  t.equal(cleanNote('  sarcasm,\r\nnot\tspam \u0007 '), 'sarcasm, not spam')
  t.equal(
    cleanNote('a\u202eb\u2066c\u200bd\u2028e\ufeff'),
    'a b c d e',
    'bidi overrides, isolates, zero widths, separators',
  )
  t.equal(cleanNote('Zoë 👩‍👩‍👧 ok'), 'Zoë 👩‍👩‍👧 ok', 'letters and emoji sequences stay')
  t.equal(cleanNote('<b>"x"</b>'), '<b>"x"</b>', 'markup is kept as text: it is escaped where shown')
})

t.test('no note, an empty one or one of spaces alone is none', async (t) => {
  for (const none of [null, undefined, '', '   ', '\n\t']) t.equal(cleanNote(none), null, JSON.stringify(none))
})

t.test('a note of more than NOTE_MAX characters is a UsageError naming the field and both lengths', async (t) => {
  t.equal(cleanNote('é'.repeat(NOTE_MAX)), 'é'.repeat(NOTE_MAX), 'exactly the bound, counted in characters')
  t.equal(cleanNote('😀'.repeat(NOTE_MAX)), '😀'.repeat(NOTE_MAX), 'characters, not UTF-16 units')
  t.throws(() => cleanNote('x'.repeat(NOTE_MAX + 1)), {
    name: 'UsageError',
    message: `the field note holds at most ${NOTE_MAX} characters; this one has ${NOTE_MAX + 1}`,
  })
  t.throws(() => cleanNote('x'.repeat(NOTE_MAX + 1)), UsageError)
})
