import { NOTE_MAX } from '../../core/review/note.ts'
import { html, type Html } from '../html.ts'

/**
 * A card's note field: one line of text that the page's script sends as the `note` field of the verdict button pressed
 * on the card (review-script.ts); without the script the verdict is sent without it.
 */
export function noteField(cardId: string): Html {
  const id = `${cardId}-note`
  return html`<p class="note-field"><label for="${id}">Note</label> \
<input type="text" class="note" id="${id}" maxlength="${NOTE_MAX}" autocomplete="off" placeholder="optional, \
kept with the verdict"></p>`
}
