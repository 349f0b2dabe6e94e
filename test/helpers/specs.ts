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

/** A project of the given specs, in the given (dependency) order, all selected. */
export function project(...specs: Spec[]): Project {
  return { path: '/specs', dir: '/specs', specs, selected: specs }
}
