/** The part of a process that signals come from. */
export interface SignalSource {
  on(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
  off(event: 'SIGINT' | 'SIGTERM', listener: () => void): unknown
}

/** A cancel signal driven by SIGINT and SIGTERM, until disposed. */
export interface Stopper {
  readonly signal: AbortSignal
  dispose(): void
}

/**
 * The CLI's answer to SIGINT and SIGTERM: the first aborts the signal, so that a run cancels the
 * engine requests in flight, records itself `failed: interrupted` and exits; a second exits at
 * once with `exitCode` (130, as a shell reports an interrupt), leaving what is stored as it is.
 */
export function stopOnSignals(
  source: SignalSource,
  exit: (code: number) => void,
  say: (line: string) => void,
): Stopper {
  const controller = new AbortController()
  const onSignal = (): void => {
    if (controller.signal.aborted) return exit(130)
    say('judge: stopping; the answers received are kept (press Ctrl-C again to quit at once)\n')
    controller.abort(new Error('interrupted'))
  }
  source.on('SIGINT', onSignal)
  source.on('SIGTERM', onSignal)
  return {
    signal: controller.signal,
    dispose() {
      source.off('SIGINT', onSignal)
      source.off('SIGTERM', onSignal)
    },
  }
}
