import type { Distribution, Question } from '../../src/core/types.ts'
import { createFakeEngine } from './fake-engine.ts'

/** The id of the jury of three fakes (juryOfThree, test/helpers/specs.ts) whose answers are kept under it. */
export const FAKE_JURY = 'jury:jev-a+gpt-b+claude-c'

/** A fake engine whose yes/no answer is `yes` or `no` as `says` gives for the message, and `promotion` for topic. */
export function saying(says: (message: string) => 'yes' | 'no', defaultModel: string) {
  return createFakeEngine({
    defaultModel,
    answer: (q: Question, state): Distribution =>
      q.type === 'yes_no'
        ? says(state.message) === 'yes'
          ? { yes: 0.9, no: 0.1 }
          : { yes: 0.2, no: 0.8 }
        : { personal: 0.1, promotion: 0.8, service: 0.1 },
  })
}

/** The jurors' engines (jurorDeps, test/helpers/deps.ts): jev-a and gpt-b always say yes, claude-c as `c` says. */
export function sayingJurors(c: (message: string) => 'yes' | 'no' = () => 'no') {
  return {
    own: saying(() => 'yes', 'jev-a'),
    openai: saying(() => 'yes', 'gpt-b'),
    anthropic: saying(c, 'claude-c'),
  }
}
