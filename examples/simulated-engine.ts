import { createHash } from 'node:crypto'
import type { Distribution, Question, State } from '../src/core/types.ts'
import type { Engine, EngineRequest, EngineResult } from '../src/ports/engine.ts'

/**
 * A stand-in for the decision model, for the example project only: it reads a message's words
 * and answers with plausible probabilities, so that the example store holds answers, runs, drift
 * and a review queue without an engine key. Its answers are simulated, not the engine's.
 */
export function createSimulatedEngine(): Engine {
  return {
    defaultModel: 'jev-1.13.0',
    async ask(request: EngineRequest): Promise<EngineResult> {
      const text = Object.values(request.state).join(' ')
      const distributions: Record<string, Distribution> = {}
      for (const q of request.questions) distributions[q.name] = answer(q, text, request.state)
      const tokens = Math.round(275 + 0.19 * JSON.stringify(request.state).length + 21 * request.questions.length + jitter(text, 'tokens') * 20 - 10)
      return { model: request.model, distributions, inputTokens: tokens, outputTokens: 0 }
    },
  }
}

const PROMO = /\b(free|win|won|winner|prize|claim|cash|urgent|call now|txt|text|reply|offer|award|guaranteed|mobile|ringtone|£|\d{5,})\b/gi
const SERVICE = /\b(account|delivery|order|bank|service|customer|password|bill|network|voicemail)\b/gi

function answer(q: Question, text: string, state: State): Distribution {
  const promo = Math.min(1, (text.match(PROMO)?.length ?? 0) / 4)
  const service = Math.min(1, (text.match(SERVICE)?.length ?? 0) / 2)
  // The question's fingerprint seeds the noise, so a reworded question answers a little differently.
  const noise = jitter(JSON.stringify(state), q.fingerprint)
  if (q.type === 'yes_no') {
    const yes = round(clamp(0.04 + 0.9 * promo + (noise - 0.5) * 0.3))
    return { yes, no: round(1 - yes) }
  }
  const weights = q.type === 'scale'
    ? q.labels.map((_, i) => 0.2 + (i === 0 ? 1 - promo : 0) + (i === q.labels.length - 1 ? promo : 0) + noise * (i === 1 ? 0.6 : 0))
    : q.labels.map((label, i) => 0.1 + (label === 'promotion' ? 2 * promo : 0) + (label === 'service' ? 1.5 * service : 0) + (i === 0 ? 0.6 + noise * 0.4 : 0))
  return normalise(q.labels, weights)
}

function normalise(labels: readonly string[], weights: number[]): Distribution {
  const total = weights.reduce((a, b) => a + b, 0)
  const out: Record<string, number> = {}
  labels.forEach((label, i) => (out[label] = round(weights[i] / total)))
  return out
}

function jitter(text: string, salt: string): number {
  return createHash('sha256').update(`${salt}\0${text}`).digest().readUInt32BE(0) / 2 ** 32
}

const clamp = (x: number) => Math.min(1, Math.max(0, x))
const round = (x: number) => Math.round(x * 100) / 100
