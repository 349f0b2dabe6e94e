import type { Verdict, VerdictChoice } from '../../core/review/verdicts.ts'

/** The access key of each verdict but `labeled`, the same on every card: the first letter of a word of its button. */
export const VERDICT_KEYS: Readonly<Record<Exclude<Verdict, 'labeled'>, string>> = {
  model_right: 'm',
  key_right: 'k',
  both_ok: 'b',
  confirmed: 'r',
  needs_context: 'n',
  ambiguous: 'a',
}

/** The access key of the undo button of the page's banner. */
export const UNDO_KEY = 'u'

// Alt with d, e or f opens the browser's address bar or menus in Chrome on Linux and Windows.
const BROWSER_KEYS = new Set(['d', 'e', 'f'])

/**
 * The access keys of a card's verdict buttons, in order: each verdict its fixed key; each "it is
 * <label>" the first letter (or digit) of the label that no other button, the undo button or the
 * browser takes, else the first free digit; null when none is left.
 */
export function accessKeys(choices: readonly VerdictChoice[]): (string | null)[] {
  const taken = new Set<string>([...BROWSER_KEYS, UNDO_KEY])
  for (const c of choices) if (c.verdict !== 'labeled') taken.add(VERDICT_KEYS[c.verdict])
  return choices.map((choice) => {
    if (choice.verdict !== 'labeled') return VERDICT_KEYS[choice.verdict]
    const candidates = [...(choice.label ?? '').toLowerCase()].filter((c) => /[a-z0-9]/.test(c))
    const key = [...candidates, ...'123456789'].find((c) => !taken.has(c)) ?? null
    if (key !== null) taken.add(key)
    return key
  })
}
