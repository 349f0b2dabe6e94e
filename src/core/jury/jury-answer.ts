import type { Distribution } from '../types.ts'
import { juryAnswer, type JuryFit, type Said } from './dawid-skene.ts'

/** A jury's answer to one question about one state: its distribution over the labels, and the jurors who dissent. */
export interface JuryVerdict {
  readonly distribution: Distribution
  /** How many jurors named another label than the jury's (0: they all agreed). */
  readonly dissent: number
  /** How the distribution was obtained: the equal `vote`, or the `jury` weighted by people's verdicts. */
  readonly source: JuryFit['kind']
}

/** The jury's answer from its jurors' labels (label indices, null for none) under a fit (core/jury/jury-fits.ts). */
export function juryVerdict(fit: JuryFit, said: Said): JuryVerdict {
  const { distribution, dissent } = juryAnswer(fit, said)
  return {
    distribution: Object.fromEntries(fit.labels.map((label, i) => [label, distribution[i]])),
    dissent,
    source: fit.kind,
  }
}
