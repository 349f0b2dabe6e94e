import { html, type Html } from '../html.ts'

/** A sentence per method name on the accuracy page, saying what it means (docs/review.md says more). */
export const MEANINGS = {
  estimate:
    "Each stratum's accuracy on its random sample, weighed by the stratum's share of the answers; the 95% " +
    "interval is Wilson's at the sample size those samples are worth, with each stratum's share pulled a little " +
    'away from 0% and 100% when its spread is worked out (Agresti–Coull), and narrowed as a sample nears its whole ' +
    'stratum (finite-population correction), so a stratum reviewed whole leaves no doubt.',
  gap:
    "Rows reviewed further down a stratum's random order than a row nobody has reviewed yet: they wait outside " +
    'the sample until that row has a verdict, so that skipping rows cannot bend the estimate.',
  ece:
    'The mean gap between the confidence the model gives and the accuracy the reviewed sample shows, bin by bin ' +
    'over the bins with a sample, each weighed by its answers: 0% for a model exactly as sure as it is right.',
  mix:
    "The model's share of each label over every answer, corrected by how often the reviewed sample shows it " +
    'wrong (prediction-powered inference), stratum by stratum, with the correction weighed to give the ' +
    "narrowest interval (PPI++): next to none when the model's labels say little of the truth.",
  kappa:
    "Cohen's κ is the agreement between the model and people beyond what their label shares would reach by " +
    "chance: 1 is full agreement, 0 no better than chance; Gwet's AC1 reads the same but stays steady when one " +
    'label is far commoner than the rest; a weighted κ (linear, quadratic) counts a near miss on a scale as part ' +
    "agreement; Krippendorff's α measures the reviewers among themselves.",
} as const

/**
 * A method name that expands to the sentence saying what it means, as a block under the figures it
 * names; `id` lets a table heading link to it.
 */
export function term(name: string, meaning: string, id?: string): Html {
  return html`<details class="term"${id === undefined ? '' : html` id="${id}"`}><summary>${name}</summary>\
<p class="muted">${meaning}</p></details>`
}
