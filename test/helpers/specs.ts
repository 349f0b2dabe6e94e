import { parseSpec } from '../../src/core/spec/spec-parse.ts'
import type { Project, Spec } from '../../src/core/types.ts'

/** A spec with all three question types and act rules, as YAML. */
export const SPAM_YAML = `name: spam
state: [message]
questions:
  is_spam:
    ask: Is this message unsolicited advertising or a scam?
    type: yes_no
  topic:
    ask: What is the message mainly about?
    labels:
      personal: Chat between people who know each other
      promotion: Offers, prizes, marketing
      service: Account, delivery or service notices
  urgency:
    ask: How urgent is the message for its reader?
    type: scale
    labels: [low, medium, high]
act:
  is_spam:
    - route: block
      when: {label: yes, p: ">= 0.95"}
    - route: review
      when: {margin: "< 0.3"}
    - route: deliver
`

/** A candidate for SPAM_YAML: is_spam reworded, topic with the given labels, urgency dropped, tone added. */
export function candidateYaml(topicLabels: readonly string[]): string {
  return `name: spam-v2
state: [message]
questions:
  is_spam:
    ask: Is this message spam?
    type: yes_no
  topic:
    ask: What is the message mainly about?
    labels: [${topicLabels.join(', ')}]
  tone:
    ask: Is the message friendly?
    type: yes_no
`
}

/** Parses YAML as a spec file at /specs/<name>.judge.yaml. */
export function spec(yaml: string = SPAM_YAML, file = '/specs/spam.judge.yaml'): Spec {
  return parseSpec(yaml, file)
}

/** A judgment of a message's language: the first of two chained judgments. */
export const LANG_YAML = 'state: [message]\nquestions:\n  lang:\n    ask: Language?\n    labels: [en, fr]\n'

/** A judgment of a message's tone whose state holds lang's label: the second of two chained judgments. */
export const TONE_YAML = 'state: [message, lang.lang]\nquestions:\n  polite:\n    ask: Polite?\n    type: yes_no\n'

/** The lang judgment (LANG_YAML) at /specs/lang.judge.yaml. */
export const langSpec = (): Spec => spec(LANG_YAML, '/specs/lang.judge.yaml')

/** The tone judgment (TONE_YAML) at /specs/tone.judge.yaml, which reads lang's label. */
export const toneSpec = (): Spec => spec(TONE_YAML, '/specs/tone.judge.yaml')

/** A project of the given specs, in the given (dependency) order, all selected. */
export function project(...specs: Spec[]): Project {
  return { path: '/specs', dir: '/specs', specs, selected: specs }
}

/**
 * A jury of three models (`models:`): `jev-a` on the configured engine, `gpt-b` on openai and `claude-c` on anthropic,
 * asked one yes/no question and one choice.
 */
export const JURY_OF_THREE_YAML = `name: trio
state: [message]
models:
  - jev-a
  - { model: gpt-b, engine: openai }
  - { model: claude-c, engine: anthropic }
questions:
  is_spam:
    ask: Is this message spam?
    type: yes_no
  topic:
    ask: What is it about?
    labels: [personal, promotion, service]
`

/** The jury of three (JURY_OF_THREE_YAML) at /specs/trio.judge.yaml. */
export const juryOfThree = (): Spec => spec(JURY_OF_THREE_YAML, '/specs/trio.judge.yaml')
