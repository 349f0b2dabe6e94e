import { tidy } from '../judge/answer.ts'
import type { ShadowPair } from '../../ports/kept-store.ts'
import type { SpecResult } from '../judge/judge-row.ts'
import type { Question, Spec } from '../types.ts'

/** A live judgment and the candidate judgment tried against it. */
export interface JudgmentPair {
  readonly live: Spec
  readonly candidate: Spec
}

/** A question both judgments of a pair ask, under the same name. */
export interface QuestionPair {
  readonly name: string
  readonly live: Question
  readonly candidate: Question
}

/**
 * Which candidate judgment is tried against which live one. A single candidate (a spec file, or
 * a folder of one) against a single live judgment (the one named) pairs them whatever their names, so
 * that a renamed copy can be tried; otherwise each candidate meets the live judgment of its name,
 * and one without a namesake is left out.
 */
export function pairJudgments(liveSelected: readonly Spec[], candidateSelected: readonly Spec[]): JudgmentPair[] {
  if (liveSelected.length === 1 && candidateSelected.length === 1) {
    return [{ live: liveSelected[0], candidate: candidateSelected[0] }]
  }
  const pairs: JudgmentPair[] = []
  for (const candidate of candidateSelected) {
    const live = liveSelected.find((s) => s.name === candidate.name)
    if (live) pairs.push({ live, candidate })
  }
  return pairs
}

/** The questions a pair shares by name, in the live judgment's order. */
export function sharedQuestions(pair: JudgmentPair): QuestionPair[] {
  const out: QuestionPair[] = []
  for (const live of pair.live.questions) {
    const candidate = pair.candidate.questions.find((q) => q.name === live.name)
    if (candidate) out.push({ name: live.name, live, candidate })
  }
  return out
}

/**
 * The shadow pairs of one row: for each paired judgment (pairJudgments) and each question of the
 * same name, the live and the candidate label, keyed by the live row's state hash and the
 * candidate's spec hash. A judgment missing from either result map gives no pairs.
 */
export function shadowPairsOf(
  live: ReadonlyMap<string, SpecResult>,
  candidate: ReadonlyMap<string, SpecResult>,
  liveSelected: readonly Spec[],
  candidateSelected: readonly Spec[],
  at: string,
): ShadowPair[] {
  const out: ShadowPair[] = []
  for (const pair of pairJudgments(liveSelected, candidateSelected)) {
    const l = live.get(pair.live.name)
    const c = candidate.get(pair.candidate.name)
    if (!l || !c) continue
    for (const { name } of sharedQuestions(pair)) {
      out.push({
        liveJudgment: pair.live.name,
        candidateJudgment: pair.candidate.name,
        candidateHash: pair.candidate.hash,
        stateHash: l.stateHash,
        question: name,
        liveLabel: l.answers[name].label,
        candidateLabel: c.answers[name].label,
        at,
      })
    }
  }
  return out
}

/** How often one candidate agreed with the live answers on one question, over the shadowed rows. */
export interface ShadowAgreement {
  readonly candidate: string
  readonly candidateHash: string
  readonly question: string
  readonly rows: number
  readonly agree: number
  readonly agreement: number
  /** When the last pair of this candidate and question was recorded. */
  readonly last: string
}

/** Agreement per candidate (by name and spec hash) and question, in the order first seen. */
export function shadowAgreement(pairs: readonly ShadowPair[]): ShadowAgreement[] {
  const groups = new Map<
    string,
    { candidate: string; candidateHash: string; question: string; rows: number; agree: number; last: string }
  >()
  for (const p of pairs) {
    const key = `${p.candidateJudgment}\0${p.candidateHash}\0${p.question}`
    const g = groups.get(key) ?? {
      candidate: p.candidateJudgment,
      candidateHash: p.candidateHash,
      question: p.question,
      rows: 0,
      agree: 0,
      last: p.at,
    }
    g.rows += 1
    if (p.liveLabel === p.candidateLabel) g.agree += 1
    if (p.at > g.last) g.last = p.at
    groups.set(key, g)
  }
  return [...groups.values()].map((g) => ({ ...g, agreement: tidy(g.agree / g.rows) }))
}
