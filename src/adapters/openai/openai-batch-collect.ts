import type { BatchItem, BatchOutcome } from '../../ports/engine.ts'
import { streamLines, type HttpTarget, type Posted } from '../engine-http.ts'
import { sendRepeated, type Repeat } from '../engine-repeat.ts'
import type { QuestionWire } from '../question-lane.ts'
import { pooled } from '../sampled-answer.ts'
import { chatResult, type QuestionAnswer } from './openai-result.ts'
import { ID_SEPARATOR, readResultLine, type LineResult } from './openai-batch-wire.ts'
import { CHAT } from './openai-wire.ts'

/** What became of one request of a question so far: its answer, or why it has none; undefined while unseen. */
type Part = QuestionAnswer | string | undefined

/**
 * What became of each question of an item so far: undefined while unseen, else its k parts (one request, or each of
 * its k samples), k as its first line said.
 */
interface Slots {
  readonly item: BatchItem
  readonly questions: (Part[] | undefined)[]
}

/** Which request of an item a custom id names: its question, and which of the question's k samples (0 of 1 alone). */
export interface RequestId {
  readonly key: string
  readonly index: number
  readonly sample: number
  readonly of: number
}

/**
 * Gathers the lines of a finished batch's output and error files into each item's outcome. Each
 * answer is read by the per-request lane's code and an item's answers are assembled as `ask`
 * assembles them, a question's k samples pooled alike. Lines of other items, of unknown questions and
 * repeats of a request are passed over.
 */
export interface Gathering {
  /** Takes one line of either file. */
  add(line: string): void
  /** Ends a read of a file: keeps what its lines gave, or, for a read that failed midway, forgets it. */
  settle(keep: boolean): void
  /** Each item's outcome, in the items' order: ok when every question was answered, else the first reason. */
  outcomes(): BatchOutcome[]
}

/** What joins an item's key and a question's index in a custom id: a character taken as itself in a pattern. */
export type IdSeparator = ':' | '_'

/** How a provider's result lines are read: the line, its custom id's item key and question, the answer's body. */
export interface LineReading {
  line(text: string): LineResult | null
  /** The item key, question index and sample a custom id names, or null for one judge did not write. */
  split(customId: string): RequestId | null
  answer(item: BatchItem, index: number, body: Record<string, unknown>): QuestionAnswer
}

/**
 * The reading of result lines read by `line`, whose custom ids are `key<separator>index`, or
 * `key<separator>index` `s<sample>of<k>` for one of a question's k samples, and whose bodies `wire`
 * reads as the per-request lane's answers.
 */
export function lineReading<B>(
  separator: IdSeparator,
  wire: QuestionWire<B>,
  line: (text: string) => LineResult | null,
): LineReading {
  const pattern = new RegExp(`^(.+)${separator}(\\d+)(?:s(\\d+)of(\\d+))?$`)
  return {
    line,
    split(customId) {
      const id = pattern.exec(customId)
      if (!id) return null
      const [sample, of] = id[3] === undefined ? [0, 1] : [Number(id[3]), Number(id[4])]
      return sample < of ? { key: id[1], index: Number(id[2]), sample, of } : null
    },
    answer(item, index, body) {
      const { model, state, questions } = item.request
      const answer = wire.read(body, questions[index])
      return { answer, estimated: wire.estimate(wire.request(model, state, questions[index])) }
    },
  }
}

/** OpenAI's output and error files: `key:index` custom ids, chat completions as bodies. */
export const OPENAI_READING: LineReading = lineReading(ID_SEPARATOR, CHAT, readResultLine)

/** A gathering over `items`, reading lines as `reading` says (OpenAI's by default). */
export function gatherOutcomes(items: readonly BatchItem[], reading: LineReading = OPENAI_READING): Gathering {
  const slots = new Map<string, Slots>(
    items.map((item) => [item.key, { item, questions: item.request.questions.map(() => undefined) }]),
  )
  // The parts set by the read under way, forgotten if it fails.
  let unsettled: { parts: Part[]; sample: number }[] = []
  return {
    add(line) {
      const read = reading.line(line)
      const id = read ? reading.split(read.customId) : null
      const slot = id ? slots.get(id.key) : undefined
      if (!read || !id || !slot || id.index >= slot.questions.length) return
      const parts = (slot.questions[id.index] ??= Array.from({ length: id.of }, () => undefined))
      if (parts.length !== id.of || parts[id.sample] !== undefined) return
      parts[id.sample] = read.ok ? answerOf(reading, slot.item, id.index, read.body) : read.reason
      unsettled.push({ parts, sample: id.sample })
    },
    settle(keep) {
      if (!keep) for (const { parts, sample } of unsettled) parts[sample] = undefined
      unsettled = []
    },
    outcomes: () => items.map((item) => outcomeOf(slots.get(item.key)!)),
  }
}

/**
 * Reads the file at `url` line by line into `gathering`, read again from its start after a transient failure as
 * `repeat` allows, forgetting what the failed read gathered, so that each line counts once.
 */
export function downloadLines(
  target: HttpTarget,
  url: string,
  gathering: Gathering,
  repeat: Repeat,
  signal?: AbortSignal,
): Promise<Posted> {
  return sendRepeated(
    async () => {
      const posted = await streamLines(target, url, gathering.add, signal)
      gathering.settle(posted.ok)
      return posted
    },
    repeat,
    signal,
  )
}

function answerOf(
  reading: LineReading,
  item: BatchItem,
  index: number,
  body: Record<string, unknown>,
): QuestionAnswer | string {
  try {
    return reading.answer(item, index, body)
  } catch (error) {
    return (error as Error).message
  }
}

function outcomeOf({ item, questions }: Slots): BatchOutcome {
  const parts = questions.flatMap((p) => p ?? [undefined])
  const reason = parts.find((a) => typeof a === 'string')
  if (reason !== undefined) return { key: item.key, ok: false, reason }
  if (parts.includes(undefined)) return { key: item.key, ok: false, reason: 'missing' }
  // A question's k samples make one answer, as the per-request lane pools them.
  const answers = (questions as QuestionAnswer[][]).map((p, i) =>
    p.length === 1 ? p[0] : pooled(item.request.questions[i], p),
  )
  return { key: item.key, ok: true, result: chatResult(item.request, answers) }
}
