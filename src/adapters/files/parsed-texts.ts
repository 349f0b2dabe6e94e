/**
 * What was parsed from a file lately, with the text it was parsed from: a server reads the answer
 * key and the reviews file on every page request, so the text is read again each time and parsed
 * only when it changed. Bounded: past `size` entries the one read longest ago goes first.
 */
export interface ParsedTexts<T> {
  /**
   * The value parsed from `text` under `id`, parsing it (with `parse`) only when the text differs from the one held.
   */
  get(id: string, text: string, parse: (text: string) => T): T
  /**
   * Lets go of what is held under `id`: after rows were forgotten in a file, no copy of their values stays in memory.
   */
  drop(id: string): void
  /** Whether anything is held under `id`. */
  holds(id: string): boolean
}

/** An empty set of parsed texts holding at most `size` of them. */
export function parsedTexts<T>(size: number): ParsedTexts<T> {
  const held = new Map<string, { readonly text: string; readonly value: T }>()
  return {
    get(id, text, parse) {
      const entry = held.get(id)
      held.delete(id)
      const kept = entry?.text === text ? entry : { text, value: parse(text) }
      if (held.size >= size) held.delete(held.keys().next().value!)
      held.set(id, kept)
      return kept.value
    },
    drop(id) {
      held.delete(id)
    },
    holds: (id) => held.has(id),
  }
}
