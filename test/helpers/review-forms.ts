/** One verdict button of a review page: the fields its form posts and the button's text and attributes. */
export interface VerdictForm {
  readonly fields: Record<string, string>
  readonly button: string
  readonly attributes: string
}

const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
}

/** The verdict forms of a review page, in page order, with their field values unescaped and the button's text without its key. */
export function verdictForms(page: string): VerdictForm[] {
  return [...page.matchAll(/<form method="post" action="\/review">(.*?)<button ([^>]*)>(.*?)<\/button><\/form>/g)].map(
    (m) => ({
      fields: Object.fromEntries(
        [...m[1].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((f) => [f[1], unescape(f[2])]),
      ),
      attributes: m[2],
      button: unescape(
        m[3].replace(/ <kbd[^>]*>.*?<\/kbd>$/, '').replace(/^<span class="num" aria-hidden="true">\d<\/span> /, ''),
      ),
    }),
  )
}

function unescape(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity])
}
