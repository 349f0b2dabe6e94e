import type { Question } from '../core/types.ts'
import { cancelled, failureError, postOnce, type HttpTarget } from './engine-http.ts'

/** One question's request: the body posted, and how its answer's text is read. */
export interface QuestionCall<A> {
  readonly body: string
  read(text: string): A
}

/**
 * Posts one request per question, all at once, and reads each answer, in the questions' order;
 * the first failure cancels the others' requests (their answers would be lost anyway) and is the
 * EngineError thrown, the key scrubbed. Each request is tried once: retries are the core's.
 */
export async function askEach<A>(
  target: HttpTarget,
  apiKey: string | null,
  questions: readonly Question[],
  call: (question: Question) => QuestionCall<A>,
  signal?: AbortSignal,
): Promise<A[]> {
  if (signal?.aborted) throw failureError(cancelled(signal), apiKey)
  // The group follows the caller's signal through a listener removed when the row is done
  // (AbortSignal.any would leave the caller's long-lived signal a reference per row).
  const group = new AbortController()
  const follow = () => group.abort(signal!.reason)
  signal?.addEventListener('abort', follow, { once: true })
  const asking = questions.map(async (question) => {
    const { body, read } = call(question)
    const outcome = await postOnce(target, body, group.signal)
    if (!outcome.ok) throw failureError(signal?.aborted ? cancelled(signal) : outcome.failure, apiKey)
    return read(outcome.value)
  })
  try {
    // The first rejection is the error thrown; the others' are the abort's echo.
    return await Promise.all(
      asking.map((p) =>
        p.catch((error: unknown) => {
          group.abort()
          throw error
        }),
      ),
    )
  } finally {
    signal?.removeEventListener('abort', follow)
  }
}
