import type { Test } from 'tap'

/** A port with the means to close the store behind it. */
export type Closable<P> = P & { close(): void }

/** A fresh store per test from `open`, closed when the test ends. */
export function freshOf<P>(open: () => Closable<P>): (t: Test) => Closable<P> {
  return (t) => {
    const store = open()
    t.teardown(() => store.close())
    return store
  }
}
