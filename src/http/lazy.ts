/**
 * A function whose module is imported on its first call: until then nothing of it is loaded, and
 * once loaded it is called directly. Calls that arrive while it loads share the one import; an
 * import that fails is tried again by the next call.
 *
 * @example
 * const runsPage = onFirstCall(() => import('./pages/runs.ts').then((m) => m.runsPage))
 */
export function onFirstCall<F extends (...args: any[]) => unknown>(
  load: () => Promise<F>,
): (...args: Parameters<F>) => Promise<Awaited<ReturnType<F>>> {
  let loaded: F | null = null
  let loading: Promise<F> | null = null
  return async (...args: Parameters<F>): Promise<Awaited<ReturnType<F>>> => {
    if (loaded === null) {
      loading ??= load()
      try {
        loaded = await loading
      } finally {
        loading = null
      }
    }
    return (await loaded(...args)) as Awaited<ReturnType<F>>
  }
}
