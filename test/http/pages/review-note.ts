import t from 'tap'
import { noteField } from '../../../src/http/pages/review-note.ts'

t.test('a note field is labelled, bounded to the note limit and named after its card', async (t) => {
  const text = noteField('card-3').text
  t.match(text, /<label for="card-3-note">Note<\/label>/)
  t.match(text, /<input type="text" class="note" id="card-3-note" maxlength="280" autocomplete="off"/)
  t.notMatch(text, /name=/, 'outside any form: the script sends it with the verdict pressed')
})
