// The questions a starter spec asks besides the label column's: one of each type, for the user to reword.

/** A placeholder question's YAML lines under the name it is given. */
type QuestionYaml = (name: string) => string

const RELEVANT: QuestionYaml = (name) => `  ${name}:
    ask: Is this row about what you are looking for?
    type: yes_no
    yes: It is about the subject you care about
    no: It is about something else
`

const TOPIC: QuestionYaml = (name) => `  ${name}:
    ask: What is this row mainly about?
    labels:            # type choice (the default): label -> description
      request: Someone asks for something
      problem: Someone reports a problem
      other: Anything else
`

const PRIORITY: QuestionYaml = (name) => `  ${name}:
    ask: How soon does this row need attention?
    type: scale
    labels: [low, medium, high]   # ordered low -> high, 2 to 10 levels
`

// Each placeholder with the names it takes, the first no data column has: an answer never shadows a column.
const PLACEHOLDERS: readonly { readonly names: readonly string[]; readonly yaml: QuestionYaml }[] = [
  { names: ['relevant', 'is_relevant', 'relevance'], yaml: RELEVANT },
  { names: ['topic', 'main_topic', 'subject_area'], yaml: TOPIC },
  { names: ['priority', 'urgency', 'importance'], yaml: PRIORITY },
]

const act = (name: string) => `# Routing: the first rule that holds sets the answer's route.
act:
  ${name}:
    - route: keep
      when: {label: yes, p: ">= 0.9"}
    - route: review
      when: {margin: "< 0.3"}
    - route: skip
`

/** The placeholder questions of a starter spec: their names, their YAML lines, and the routing of the first. */
export interface Placeholders {
  readonly names: readonly string[]
  readonly yaml: string
  readonly act: string
}

/**
 * One question of each type to edit, each named apart from the data's columns (case aside) and from the label
 * column's question; a placeholder named as that question (its type's own) is left out, and the routing goes with
 * the yes/no question.
 */
export function placeholderQuestions(columns: readonly string[], labelQuestion: string | null): Placeholders {
  const taken = new Set([...columns.map((c) => c.toLowerCase()), ...(labelQuestion === null ? [] : [labelQuestion])])
  const kept = PLACEHOLDERS.filter((p) => p.names[0] !== labelQuestion).map((p) => ({
    ...p,
    name: freeName(p.names, taken),
  }))
  return {
    names: kept.map((p) => p.name),
    yaml: kept.map((p) => p.yaml(p.name)).join(''),
    act: kept[0]?.yaml === RELEVANT ? act(kept[0].name) : '',
  }
}

/** The first of `names` not taken, else the first with the lowest number after it that is not. */
function freeName(names: readonly string[], taken: ReadonlySet<string>): string {
  const free = names.find((n) => !taken.has(n))
  if (free !== undefined) return free
  let n = 2
  while (taken.has(`${names[0]}_${n}`)) n += 1
  return `${names[0]}_${n}`
}
