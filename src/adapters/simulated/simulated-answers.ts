import { createHash } from 'node:crypto'
import type { Distribution, Question, State } from '../../core/types.ts'

// Words that mark a text as pressing, promotional or alarming: what many yes/no questions and
// scales ask about (spam, urgency, complaints). A simulation needs some signal; this one is plain.
const WORDS =
  'free|win|won|winner|prize|claim|cash|urgent|now|call|txt|text|reply|offer|award|guaranteed|immediately|asap|' +
  'today|deadline|refund|complaint|broken|failed|error|warning|alert|account|password|bank'
const MARKED = new RegExp(`\\b(${WORDS})\\b|£|\\$|€|!|\\b\\d{5,}\\b`, 'gi')

/**
 * A simulated distribution over a question's labels for a state: stable (the same state and
 * question always get the same answer) and plausible (it follows the words of the text and of
 * the question's labels and descriptions, with a little noise seeded by the question's wording).
 */
export function simulatedDistribution(question: Question, state: State): Distribution {
  const text = Object.values(state).join(' ')
  const words = wordsOf(text)
  const marked = Math.min(1, (text.match(MARKED)?.length ?? 0) / 4)
  const noise = seeded(JSON.stringify(state), question.fingerprint)
  if (question.type === 'yes_no') {
    const yes = round(
      clamp(
        0.05 +
          0.8 * marked +
          0.3 * overlap(words, `${question.ask} ${question.descriptions[0] ?? ''}`) +
          (noise - 0.5) * 0.3,
      ),
    )
    return { yes, no: round(1 - yes) }
  }
  if (question.type === 'scale') return scale(question.labels, clamp(0.1 + 0.75 * marked + (noise - 0.5) * 0.4))
  return choice(question, words, marked, noise)
}

/** A choice: each label weighs by how much of its name and description the text shares. */
function choice(question: Question, words: ReadonlySet<string>, marked: number, noise: number): Distribution {
  const weights = question.labels.map((label, i) => {
    const about = overlap(words, `${label} ${question.descriptions[i] ?? ''}`)
    const own = seeded(String(noise), label)
    return (
      0.15 +
      2 * about +
      0.5 * own +
      (i === 0 ? 0.4 * (1 - marked) : 0) +
      (i === question.labels.length - 1 ? 0.4 * marked : 0)
    )
  })
  return normalise(question.labels, weights)
}

/** A scale: a bump of probability around position `at` (0 the lowest level, 1 the highest). */
function scale(labels: readonly string[], at: number): Distribution {
  const centre = at * (labels.length - 1)
  return normalise(
    labels,
    labels.map((_, i) => Math.exp(-((i - centre) ** 2) / 0.72)),
  )
}

function normalise(labels: readonly string[], weights: readonly number[]): Distribution {
  const total = weights.reduce((a, b) => a + b, 0)
  return Object.fromEntries(labels.map((label, i) => [label, round(weights[i] / total)]))
}

/** The share of a phrase's longer words whose first five letters the text has. */
function overlap(words: ReadonlySet<string>, phrase: string): number {
  const wanted = [...wordsOf(phrase)].filter((w) => w.length > 3)
  if (wanted.length === 0) return 0
  return wanted.filter((w) => words.has(w)).length / wanted.length
}

function wordsOf(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/\p{L}+/gu) ?? []).map((w) => w.slice(0, 5)))
}

/** A number in [0, 1) fixed by its inputs. */
function seeded(text: string, salt: string): number {
  return createHash('sha256').update(`${salt}\0${text}`).digest().readUInt32BE(0) / 2 ** 32
}

const clamp = (x: number) => Math.min(1, Math.max(0, x))
// Two decimals, as System One answers.
const round = (x: number) => Math.round(x * 100) / 100

/** Input tokens a request of this state and questions would take, by the published fit, with a little seeded spread. */
export function simulatedTokens(state: State, questions: number): number {
  const json = JSON.stringify(state)
  return Math.round(275 + 0.19 * json.length + 21 * questions + seeded(json, 'tokens') * 20 - 10)
}
